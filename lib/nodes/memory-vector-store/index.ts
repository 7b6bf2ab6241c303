import { defineNode } from "../define";
import { memoryVectorStoreDefinition } from "./definition";
import { buildMemoryVectorStore } from "./runtime";

export const memoryVectorStore = defineNode({
  definition: memoryVectorStoreDefinition,
  runtime: buildMemoryVectorStore,
});
