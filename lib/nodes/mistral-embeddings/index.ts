import { defineNode } from "../define";
import { hostedEmbeddingsRuntime } from "../shared/hosted-embeddings";
import { mistralAIEmbeddingsDefinition } from "./definition";

export const mistralAIEmbeddings = defineNode({
  definition: mistralAIEmbeddingsDefinition,
  runtime: hostedEmbeddingsRuntime(false),
});
