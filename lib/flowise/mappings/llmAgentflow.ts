import { defineMapping, param, toBoolean, toInteger } from "../rules";
import { embeddedModel, jsonList, memoryType, returnResponseAs, stepText } from "../step-rules";

/** Flowise "LLM" (agentflow) → our LLM step, its embedded model → our model node. */
export const llmAgentflow = defineMapping({
  flowise: "llmAgentflow",
  type: "llmAgentflow",
  step: {},
  richText: true,
  inputs: {
    llmModel: embeddedModel("llmModelConfig"),
    llmMessages: param("llmMessages", jsonList),
    llmEnableMemory: param("llmEnableMemory", toBoolean),
    llmMemoryType: param("llmMemoryType", memoryType),
    llmMemoryWindowSize: param("llmMemoryWindowSize", toInteger),
    llmMemoryMaxTokenLimit: param("llmMemoryMaxTokenLimit", toInteger),
    llmUserMessage: param("llmUserMessage", stepText),
    llmReturnResponseAs: returnResponseAs,
    llmStructuredOutput: param("llmStructuredOutput", jsonList),
    llmUpdateState: param("llmUpdateState", jsonList),
  },
});
