import { defineMapping, ignore, param, toHttpUrl, toInteger, toNumber, toText } from "../rules";

/** Flowise "ChatLocalAI" (a LocalAI server by base path) → our OpenAI-compatible chat model, which is that. */
export const chatLocalAI = defineMapping({
  flowise: "chatLocalAI",
  type: "chatOpenAICompatible",
  credential: "credential",
  inputs: {
    basePath: param("baseURL", toHttpUrl),
    modelName: param("model", toText),
    temperature: param("temperature", toNumber),
    maxTokens: param("maxTokens", toInteger),
    topP: param("topP", toNumber),
    timeout: param("timeout", toInteger),
    streaming: ignore("streaming is chosen per request (the prediction's `streaming`), not on the model"),
    cache: ignore(
      "a model cache has no equivalent",
      undefined,
      "the cache is not carried over: every call asks the model",
    ),
  },
});
