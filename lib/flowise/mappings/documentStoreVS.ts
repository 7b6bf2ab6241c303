import { defineMapping, param } from "../rules";

/**
 * Flowise "Document Store (Vector)" → our Document Store Retriever: the store chosen by id (a
 * Flowise store's id names none of ours until a store is made here and picked on the node). Only
 * its "retriever" output has an equivalent.
 */
export const documentStoreVS = defineMapping({
  flowise: "documentStoreVS",
  type: "documentStoreRetriever",
  inputs: { selectedStore: param("storeId") },
  outputs: { retriever: "retriever" },
});
