import { defineNode } from "../define";
import { storeRuntime } from "../shared/store";
import { keywordStoreDefinition } from "./definition";

export const keywordStore = defineNode({
  definition: keywordStoreDefinition,
  runtime: storeRuntime(keywordStoreDefinition.capabilities.store),
});
