import { anchor, defineMapping, ignore, oneOf, param, toHttpUrl, toInteger, toJson, toText } from "../rules";

/**
 * Flowise "Chroma" → our Chroma store: the same server, collection and metadata filter; records are
 * read as LangChain (and so Flowise) writes them (the text as Chroma's document). Flowise keeps the
 * tenant and database on its credential, and so do we (or on the node).
 */
export const chroma = defineMapping({
  flowise: "chroma",
  type: "chromaStore",
  credential: "credential",
  inputs: {
    document: anchor("document"),
    embeddings: anchor("embeddings"),
    collectionName: param("collection", toText),
    chromaURL: param("url", toHttpUrl),
    chromaMetadataFilter: param("filter", toJson),
    topK: param("topK", toInteger),
    recordManager: ignore(
      "every store keeps its record manager in Switchyard's database",
      undefined,
      "the record manager connection is not carried over: this store's record manager is built in",
    ),
    searchType: ignore("only similarity search is offered (MMR is not)", oneOf("similarity")),
    fetchK: ignore("fetchK applies to MMR search, which is not offered"),
    lambda: ignore("lambda applies to MMR search, which is not offered"),
    fileUpload: ignore("files are uploaded through the upsert API or the studio", oneOf(false, "false")),
  },
  outputs: { retriever: "retriever" },
});
