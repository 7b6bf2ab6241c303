import { hostedEmbeddingsDefinition } from "../shared/hosted-embeddings";

export const mistralAIEmbeddingsDefinition = hostedEmbeddingsDefinition({
  name: "mistralAIEmbeddings",
  label: "Mistral AI Embeddings",
  description: "Embeddings from Mistral AI (mistral-embed: 1024 dimensions).",
  credentialType: "mistralAI",
  defaultModel: "mistral-embed",
  models: ["mistral-embed", "codestral-embed"],
});
