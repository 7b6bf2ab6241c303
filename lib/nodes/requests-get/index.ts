import { defineNode } from "../define";
import { requestsGetDefinition } from "./definition";
import { buildRequestsGet } from "./runtime";

export const requestsGet = defineNode({ definition: requestsGetDefinition, runtime: buildRequestsGet });
