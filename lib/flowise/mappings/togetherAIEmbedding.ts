import { defineMapping } from "../rules";
import { embeddingsInputs } from "./embeddingsInputs";

/** Flowise "TogetherAIEmbedding" → our Together AI Embeddings. */
export const togetherAIEmbedding = defineMapping({
  flowise: "togetherAIEmbedding",
  type: "togetherAIEmbeddings",
  credential: "credential",
  inputs: embeddingsInputs,
  outputs: { togetherAIEmbedding: "embeddings" },
});
