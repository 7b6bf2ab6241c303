import { defineMapping, ignore, param, toHttpUrl, toInteger, toNumber, toText } from "../rules";

/** Flowise "HuggingFace Inference" (an LLM) → our Hugging Face Inference text model. */
export const huggingFaceInference_LLMs = defineMapping({
  flowise: "huggingFaceInference_LLMs",
  type: "huggingFaceInference",
  credential: "credential",
  inputs: {
    model: param("model", toText),
    endpoint: param("endpoint", toHttpUrl),
    temperature: param("temperature", toNumber),
    maxTokens: param("maxTokens", toInteger),
    topP: param("topP", toNumber),
    hfTopK: param("topK", toInteger),
    frequencyPenalty: param("repetitionPenalty", toNumber),
    cache: ignore(
      "a model cache has no equivalent",
      undefined,
      "the cache is not carried over: every call asks the model",
    ),
  },
});
