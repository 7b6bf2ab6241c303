import { defineMapping, ignore, param, toBoolean, toInteger, toNumber, toText } from "../rules";

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
    extendedThinking: param("extendedThinking", toBoolean),
    budgetTokens: param("budgetTokens", toInteger),
  },
});
