import { defineMapping, ignore, param, toHttpUrl, toInteger, toNumber, toText } from "../rules";

/**
 * Flowise "ChatOpenAI Custom" (any OpenAI-compatible server, custom model name) → our
 * OpenAI-compatible chat model, like "ChatOpenAI": the same node already is that.
 */
export const chatOpenAICustom = defineMapping({
  flowise: "chatOpenAICustom",
  type: "chatOpenAICompatible",
  credential: "credential",
  inputs: {
    modelName: param("model", toText),
    temperature: param("temperature", toNumber),
    maxTokens: param("maxTokens", toInteger),
    topP: param("topP", toNumber),
    frequencyPenalty: param("frequencyPenalty", toNumber),
    presencePenalty: param("presencePenalty", toNumber),
    timeout: param("timeout", toInteger),
    basepath: param("baseURL", toHttpUrl),
    streaming: ignore("streaming is chosen per request (the prediction's `streaming`), not on the model"),
    baseOptions: ignore(
      "extra request headers (BaseOptions) cannot be imported: put the key in an OpenAI credential with this base URL",
      () => false,
    ),
    cache: ignore(
      "a model cache has no equivalent",
      undefined,
      "the cache is not carried over: every call asks the model",
    ),
  },
});
