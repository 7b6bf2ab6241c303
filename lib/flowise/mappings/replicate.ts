import { defineMapping, ignore, param, toJson, toNumber, toInteger, toText } from "../rules";

/** Flowise "Replicate" (an LLM) → our Replicate text model (its token goes in a Replicate credential). */
export const replicate = defineMapping({
  flowise: "replicate",
  type: "replicateLLM",
  credential: "credential",
  inputs: {
    model: param("model", toText),
    temperature: param("temperature", toNumber),
    maxTokens: param("maxTokens", toInteger),
    topP: param("topP", toNumber),
    repetitionPenalty: param("repetitionPenalty", toNumber),
    additionalInputs: param("additionalInputs", toJson),
    cache: ignore(
      "a model cache has no equivalent",
      undefined,
      "the cache is not carried over: every call asks the model",
    ),
  },
});
