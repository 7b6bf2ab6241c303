import { defineMapping, param, toHttpUrl, toText } from "../rules";

/** Flowise "LocalAI Embeddings" → our OpenAI-compatible embeddings at the LocalAI server. */
export const localAIEmbeddings = defineMapping({
  flowise: "localAIEmbeddings",
  type: "openAIEmbeddings",
  credential: "credential",
  inputs: {
    basePath: param("baseURL", toHttpUrl),
    modelName: param("model", toText),
  },
  outputs: { localAIEmbeddings: "embeddings" },
});
