import { CLEANUP_OPTIONS, DT } from "../../vector/node-types";
import type { NodeDefinitionSpec } from "@/common/nodes/types";

export const keywordStoreDefinition = {
  name: "keywordStore",
  version: 1,
  label: "Keyword Store (full-text)",
  category: "Vector Stores",
  description:
    "Stores document chunks and finds them by their words (PostgreSQL full-text search). Needs no embeddings model. Wire it next to a vector store into the same chain for hybrid search.",
  inputs: [
    { kind: "anchor", name: "document", label: "Documents", accepts: [DT.document], list: true, optional: true },
    { kind: "param", name: "topK", label: "Top K", type: "number", default: 4, integer: true, min: 1, max: 100 },
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
  outputs: [{ name: "retriever", label: "Retriever", types: [DT.keywordStore, DT.retriever] }],
  capabilities: { store: "keyword" },
} as const satisfies NodeDefinitionSpec;
