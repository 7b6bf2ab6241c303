import { DT } from "../../vector/node-types";
import type { NodeDefinitionSpec } from "@/common/nodes/types";

/**
 * Flowise's Document Store loader (documentStore): a flow's documents are the chunks a document
 * store holds, e.g. to put them in the flow's own vector store next to other loaders.
 */
export const documentStoreLoaderDefinition = {
  name: "documentStoreLoader",
  version: 1,
  label: "Document Store",
  category: "Document Loaders",
  description:
    "The chunks a document store holds (Document Stores in the studio, /api/v1/document-store) as this flow's documents, as they were split there. The store is filled by its own upsert.",
  inputs: [
    {
      kind: "param",
      name: "storeId",
      label: "Document store",
      type: "string",
      maxLength: 36,
      description: "The document store's id (GET /api/v1/document-store/store lists them).",
    },
  ],
  outputs: [{ name: "document", label: "Document", types: [DT.document] }],
} as const satisfies NodeDefinitionSpec;
