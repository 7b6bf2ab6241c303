import { defineMapping, ignore, param, toInteger, toNumber, toText } from "../rules";
import { llamaIndexNote } from "./llamaIndex";

/** Flowise "ChatOpenAI" (LlamaIndex) → our OpenAI-compatible chat model. */
export const chatOpenAI_LlamaIndex = defineMapping({
  flowise: "chatOpenAI_LlamaIndex",
  type: "chatOpenAICompatible",
  credential: "credential",
  note: llamaIndexNote("ChatOpenAI", "OpenAI-compatible Chat Model"),
  inputs: {
    modelName: param("model", toText),
    temperature: param("temperature", toNumber),
    maxTokens: param("maxTokens", toInteger),
    topP: param("topP", toNumber),
    timeout: param("timeout", toInteger),
    streaming: ignore("streaming is chosen per request (the prediction's `streaming`), not on the model"),
  },
  outputs: { chatOpenAI_LlamaIndex: "chatModel" },
});
