import { defineNode } from "../define";
import { llmAgentflowDefinition } from "./definition";
import { buildLlmStep } from "./runtime";

export const llmAgentflow = defineNode({ definition: llmAgentflowDefinition, runtime: buildLlmStep });
