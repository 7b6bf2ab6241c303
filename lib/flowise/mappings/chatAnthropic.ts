import { defineMapping, ignore, oneOf, param, toBoolean, toInteger, toNumber, toText } from "../rules";

/** Flowise "ChatAnthropic" → our Anthropic chat model. */
export const chatAnthropic = defineMapping({
  flowise: "chatAnthropic",
  type: "chatAnthropic",
  credential: "credential",
  inputs: {
    modelName: param("model", toText),
    temperature: param("temperature", toNumber),
    maxTokensToSample: param("maxTokens", toInteger),
    allowImageUploads: param("allowImageUploads", toBoolean),
    streaming: ignore("streaming is chosen per request (the prediction's `streaming`), not on the model"),
    extendedThinking: ignore("extended thinking has no equivalent", oneOf(false, "false")),
    // Agentflows keep Flowise's default budget even with thinking off: it means nothing then.
    budgetTokens: ignore("the thinking budget is used only with extended thinking, which has no equivalent"),
  },
});
