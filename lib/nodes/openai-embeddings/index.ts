import { defineNode } from "../define";
import { openAIEmbeddingsDefinition } from "./definition";
import { buildOpenAIEmbeddings } from "./runtime";

export const openAIEmbeddings = defineNode({ definition: openAIEmbeddingsDefinition, runtime: buildOpenAIEmbeddings });
