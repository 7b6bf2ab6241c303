import { defineMapping, ignore, param, toBoolean, toHttpUrl, toInteger, toNumber, toText } from "../rules";

/** The model inputs of Flowise's "ChatGoogleGenerativeAI", on a chatflow node or inside an agentflow step. */
export const geminiModelInputs = {
  modelName: param("modelName", toText),
  // Flowise's override of the listed model: listed after modelName, so it wins when set.
  customModelName: param("modelName", toText),
  temperature: param("temperature", toNumber),
  maxOutputTokens: param("maxOutputTokens", toInteger),
  topP: param("topP", toNumber),
  topK: param("topK", toInteger),
  streaming: param("streaming", toBoolean),
  baseUrl: param("baseUrl", toHttpUrl),
  allowImageUploads: param("allowImageUploads", toBoolean),
  // Stricter safety settings than Gemini's defaults cannot be kept: importing without them would loosen them.
  harmCategory: ignore(
    "safety settings (harm categories) have no equivalent: Gemini's defaults would apply",
    () => false,
  ),
  harmBlockThreshold: ignore(
    "safety settings (block thresholds) have no equivalent: Gemini's defaults would apply",
    () => false,
  ),
  cache: ignore(
    "a model cache has no equivalent",
    undefined,
    "the cache is not carried over: every call asks the model",
  ),
};

/** Flowise "ChatGoogleGenerativeAI" → our Google Gemini chat model. */
export const chatGoogleGenerativeAI = defineMapping({
  flowise: "chatGoogleGenerativeAI",
  type: "chatGoogleGenerativeAI",
  credential: "credential",
  inputs: geminiModelInputs,
});
