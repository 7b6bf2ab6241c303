import { hostedEmbeddingsDefinition } from "../shared/hosted-embeddings";

export const togetherAIEmbeddingsDefinition = hostedEmbeddingsDefinition({
  name: "togetherAIEmbeddings",
  label: "Together AI Embeddings",
  description: "Embeddings from an open model served by Together AI.",
  credentialType: "togetherAI",
  defaultModel: "BAAI/bge-base-en-v1.5",
  models: ["BAAI/bge-base-en-v1.5", "BAAI/bge-large-en-v1.5", "togethercomputer/m2-bert-80M-8k-retrieval"],
});
