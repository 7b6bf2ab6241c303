import { defineNode } from "../define";
import { elasticsearchStoreDefinition } from "./definition";
import { buildElasticsearchStore } from "./runtime";

export const elasticsearchStore = defineNode({
  definition: elasticsearchStoreDefinition,
  runtime: buildElasticsearchStore,
});
