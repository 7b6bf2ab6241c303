import { defineMapping, ignore, oneOf, param, toBoolean, toHttpUrl, toInteger, toNumber, toText } from "../rules";

const perRequest = "streaming is chosen per request (the prediction's `streaming`), not on the model";

/** The model inputs Flowise's "ChatOpenAI" and "ChatOpenAI Custom" share, onto our OpenAI-compatible model. */
export const openAIModelInputs = {
  modelName: param("model", toText),
  temperature: param("temperature", toNumber),
  maxTokens: param("maxTokens", toInteger),
  topP: param("topP", toNumber),
  frequencyPenalty: param("frequencyPenalty", toNumber),
  presencePenalty: param("presencePenalty", toNumber),
  timeout: param("timeout", toInteger),
  basepath: param("baseURL", toHttpUrl),
  streaming: ignore(perRequest),
};

/** Flowise "ChatOpenAI" → our OpenAI-compatible chat model (its base path becomes our base URL). */
export const chatOpenAI = defineMapping({
  flowise: "chatOpenAI",
  type: "chatOpenAICompatible",
  credential: "credential",
  inputs: {
    ...openAIModelInputs,
    allowImageUploads: param("allowImageUploads", toBoolean),
    imageResolution: ignore(
      "only the provider's default image resolution is supported",
      oneOf("low", "auto", "high"),
      "the image resolution is not carried over: images are sent at the provider's default",
    ),
    reasoning: ignore("reasoning options have no equivalent", oneOf(false, "false")),
  },
});
