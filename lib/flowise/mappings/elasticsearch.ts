import { anchor, defineMapping, ignore, param, toInteger, toText } from "../rules";

/**
 * Flowise "Elasticsearch" → our Elasticsearch store: the same index and similarity; documents are
 * read as LangChain (and so Flowise) writes them ({text, metadata, embedding}). Flowise's endpoint
 * and API key live on our elasticsearch credential (its base URL and key).
 */
export const elasticsearch = defineMapping({
  flowise: "elasticsearch",
  type: "elasticsearchStore",
  credential: "credential",
  inputs: {
    document: anchor("document"),
    embeddings: anchor("embeddings"),
    indexName: param("index", toText),
    topK: param("topK", toInteger),
    similarity: param("similarity", toText),
    recordManager: ignore(
      "every store keeps its record manager in Switchyard's database",
      undefined,
      "the record manager connection is not carried over: this store's record manager is built in",
    ),
  },
  outputs: { retriever: "retriever" },
});
