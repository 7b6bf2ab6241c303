import { anchor, defineMapping, ignore, param, toInteger } from "../rules";

/**
 * Flowise "Faiss" (a vector index in a local folder, for users without a database server) → our
 * Vector Store (pgvector), which is that here: without DATABASE_URL it runs on the embedded
 * database in DATA_DIR. Documents go in through the upsert (the studio's Upsert or the API), with the
 * record manager's counts; the folder path has no meaning on this server.
 */
export const faiss = defineMapping({
  flowise: "faiss",
  type: "pgvectorStore",
  note: "Flowise's Faiss index was imported as our Vector Store (pgvector), on the embedded database when the server has no DATABASE_URL: upsert its documents once (studio or API).",
  inputs: {
    document: anchor("document"),
    embeddings: anchor("embeddings"),
    topK: param("topK", toInteger),
    basePath: ignore(
      "the index lives in the server's database, not in a folder",
      undefined,
      "the Faiss folder (basePath) is not carried over: the index lives in the server's database",
    ),
  },
  outputs: { retriever: "retriever" },
});
