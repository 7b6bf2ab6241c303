import { CLEANUP_OPTIONS, DT } from "../../vector/node-types";
import type { NodeDefinitionSpec } from "@/common/nodes/types";

export const pgvectorStoreDefinition = {
  name: "pgvectorStore",
  version: 1,
  label: "Vector Store (pgvector)",
  category: "Vector Stores",
  description:
    "Stores document chunks with their embeddings in the database (pgvector) and finds the most similar ones. Fill it through the upsert API or the node's upload.",
  inputs: [
    { kind: "anchor", name: "document", label: "Documents", accepts: [DT.document], list: true, optional: true },
    { kind: "anchor", name: "embeddings", label: "Embeddings", accepts: [DT.embeddings] },
    { kind: "param", name: "topK", label: "Top K", type: "number", default: 4, integer: true, min: 1, max: 100 },
    {
      kind: "param",
      name: "scoreThreshold",
      label: "Score threshold",
      type: "number",
      optional: true,
      min: 0,
      max: 1,
      additional: true,
      description: "Only return chunks with a cosine similarity at least this high (0..1).",
    },
    {
      kind: "param",
      name: "cleanup",
      label: "Record manager cleanup",
      type: "options",
      default: "incremental",
      options: CLEANUP_OPTIONS,
      additional: true,
    },
  ],
  outputs: [{ name: "retriever", label: "Retriever", types: [DT.vectorStore, DT.retriever] }],
  capabilities: { store: "vector" },
} as const satisfies NodeDefinitionSpec;
