import { defineNode } from "../define";
import { hostedEmbeddingsRuntime } from "../shared/hosted-embeddings";
import { azureOpenAIEmbeddingsDefinition } from "./definition";

export const azureOpenAIEmbeddings = defineNode({
  definition: azureOpenAIEmbeddingsDefinition,
  runtime: hostedEmbeddingsRuntime(true),
});
