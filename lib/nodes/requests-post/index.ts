import { defineNode } from "../define";
import { requestsPostDefinition } from "./definition";
import { buildRequestsPost } from "./runtime";

export const requestsPost = defineNode({ definition: requestsPostDefinition, runtime: buildRequestsPost });
