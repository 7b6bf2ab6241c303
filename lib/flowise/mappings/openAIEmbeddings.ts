import { defineMapping, ignore, oneOf, param, toHttpUrl, toInteger, toText } from "../rules";

/** Flowise "OpenAI Embeddings" → our OpenAI-compatible Embeddings (base path → base URL). */
export const openAIEmbeddings = defineMapping({
  flowise: "openAIEmbeddings",
  type: "openAIEmbeddings",
  credential: "credential",
  inputs: {
    modelName: param("model", toText),
    basepath: param("baseURL", toHttpUrl),
    dimensions: param("dimensions", toInteger),
    batchSize: param("batchSize", toInteger),
    stripNewLines: ignore("stripping new lines has no equivalent", oneOf(false, "false")),
  },
});
