import { defineMapping, ignore, oneOf, param, toInteger, toNumber, toText } from "../rules";
import { llamaIndexNote } from "./llamaIndex";

/** Flowise "ChatAnthropic" (LlamaIndex) → our Anthropic chat model. */
export const chatAnthropic_LlamaIndex = defineMapping({
  flowise: "chatAnthropic_LlamaIndex",
  type: "chatAnthropic",
  credential: "credential",
  note: llamaIndexNote("ChatAnthropic", "Anthropic Chat Model"),
  inputs: {
    modelName: param("model", toText),
    temperature: param("temperature", toNumber),
    maxTokensToSample: param("maxTokens", toInteger),
    topP: ignore("top P is not sent to Anthropic by our node", oneOf(1, "1")),
  },
  outputs: { chatAnthropic_LlamaIndex: "chatModel" },
});
