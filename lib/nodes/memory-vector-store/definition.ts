import { DT } from "../../vector/node-types";
import type { NodeDefinitionSpec } from "@/common/nodes/types";

export const memoryVectorStoreDefinition = {
  name: "memoryVectorStore",
  version: 1,
  label: "In-Memory Vector Store",
  category: "Vector Stores",
  description:
    "Embeds the connected documents when the flow is built and searches them in memory: nothing to upsert, nothing stored (re-embedded after each restart or flow change). For many or changing documents use the Vector Store (pgvector).",
  inputs: [
    { kind: "anchor", name: "document", label: "Documents", accepts: [DT.document], list: true },
    { kind: "anchor", name: "embeddings", label: "Embeddings", accepts: [DT.embeddings] },
    { kind: "param", name: "topK", label: "Top K", type: "number", default: 4, integer: true, min: 1, max: 100 },
  ],
  outputs: [{ name: "retriever", label: "Retriever", types: [DT.retriever] }],
} as const satisfies NodeDefinitionSpec;
