/**
 * Connection type names of the document nodes (loaders, splitter, embeddings, stores, retrievers).
 * Plain data, safe in the browser. Kept apart from common/nodes/types.ts so this feature adds no edits
 * to the shared T table.
 */
export const DT = {
  document: "Document",
  textSplitter: "TextSplitter",
  embeddings: "Embeddings",
  vectorStore: "VectorStore",
  keywordStore: "KeywordStore",
  retriever: "BaseRetriever",
} as const;

/** Cleanup modes of the record manager (see lib/vector/record-manager.ts). */
export const CLEANUP_OPTIONS = [
  {
    label: "Incremental",
    name: "incremental",
    description: "A re-upserted source replaces its old chunks; other sources stay.",
  },
  { label: "Full", name: "full", description: "Chunks of every source not in this upsert are deleted." },
  { label: "None", name: "none", description: "Never delete; unchanged chunks are still skipped." },
] as const;
