import { defineMapping, param, toText } from "../rules";

/**
 * Flowise "Document Store" (the loader: a store's chunks as a flow's documents) → our Document Store
 * loader. The store is chosen by id; the import checks the id names a store the importer may read
 * (lib/services/flowise-import.ts) and says so when it does not. Only its "document" output has an
 * equivalent (not "text").
 */
export const documentStore = defineMapping({
  flowise: "documentStore",
  type: "documentStoreLoader",
  inputs: { selectedStore: param("storeId", toText) },
  outputs: { document: "document" },
});
