import { anchor, defineMapping, param, toInteger } from "../rules";

/**
 * Flowise "In-Memory Vector Store" → our In-Memory Vector Store: both embed the connected documents
 * when the flow is built (no upsert). Only its "retriever" output has an equivalent.
 */
export const memoryVectorStore = defineMapping({
  flowise: "memoryVectorStore",
  type: "memoryVectorStore",
  inputs: {
    document: anchor("document"),
    embeddings: anchor("embeddings"),
    topK: param("topK", toInteger),
  },
  outputs: { retriever: "retriever" },
});
