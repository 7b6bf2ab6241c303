import { defineNode } from "../define";
import { iterationAgentflowDefinition } from "./definition";
import { buildIterationStep } from "./runtime";

export const iterationAgentflow = defineNode({ definition: iterationAgentflowDefinition, runtime: buildIterationStep });
