import { defineNode } from "../define";
import { hostedEmbeddingsRuntime } from "../shared/hosted-embeddings";
import { togetherAIEmbeddingsDefinition } from "./definition";

export const togetherAIEmbeddings = defineNode({
  definition: togetherAIEmbeddingsDefinition,
  runtime: hostedEmbeddingsRuntime(false),
});
