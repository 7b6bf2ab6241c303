import { defineNode } from "../define";
import { retrieverAgentflowDefinition } from "./definition";
import { buildRetrieverStep } from "./runtime";

export const retrieverAgentflow = defineNode({ definition: retrieverAgentflowDefinition, runtime: buildRetrieverStep });
