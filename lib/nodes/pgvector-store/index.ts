import { defineNode } from "../define";
import { storeRuntime } from "../shared/store";
import { pgvectorStoreDefinition } from "./definition";

export const pgvectorStore = defineNode({
  definition: pgvectorStoreDefinition,
  runtime: storeRuntime(pgvectorStoreDefinition.capabilities.store),
});
