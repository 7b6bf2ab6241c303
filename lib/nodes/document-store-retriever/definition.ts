import { DT } from "../../vector/node-types";
import type { NodeDefinitionSpec } from "@/common/nodes/types";

/** Flowise's Document Store (documentStore / documentStoreVS): a flow reads a document store's chunks. */
export const documentStoreRetrieverDefinition = {
  name: "documentStoreRetriever",
  version: 1,
  label: "Document Store Retriever",
  category: "Vector Stores",
  description:
    "Searches a document store (Document Stores in the studio, /api/v1/document-store) with its own embeddings and store; the store is filled there, not by this flow's upsert.",
  inputs: [
    {
      kind: "param",
      name: "storeId",
      label: "Document store",
      type: "string",
      maxLength: 36,
      description: "The document store's id (GET /api/v1/document-store/store lists them).",
    },
    {
      kind: "param",
      name: "topK",
      label: "Top K",
      type: "number",
      integer: true,
      min: 1,
      max: 100,
      optional: true,
      additional: true,
      description: "How many chunks to return; empty: the store node's own Top K.",
    },
  ],
  outputs: [{ name: "retriever", label: "Retriever", types: [DT.retriever] }],
} as const satisfies NodeDefinitionSpec;
