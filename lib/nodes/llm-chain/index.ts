import { defineNode } from "../define";
import { llmChainDefinition } from "./definition";
import { buildLlmChain } from "./runtime";

export const llmChain = defineNode({ definition: llmChainDefinition, runtime: buildLlmChain });
