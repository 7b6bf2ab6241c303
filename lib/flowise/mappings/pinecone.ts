import { anchor, defineMapping, ignore, oneOf, param, toInteger, toJson, toText } from "../rules";

/**
 * Flowise "Pinecone" → our Pinecone store: the same index, namespace, filter and text key (records
 * Flowise wrote are read from their text key). The record manager is ours (in the database), so a
 * Flowise record manager connection is not needed; only plain similarity search is offered.
 */
export const pinecone = defineMapping({
  flowise: "pinecone",
  type: "pineconeStore",
  credential: "credential",
  inputs: {
    document: anchor("document"),
    embeddings: anchor("embeddings"),
    pineconeIndex: param("indexName", toText),
    pineconeNamespace: param("namespace", toText),
    pineconeMetadataFilter: param("metadataFilter", toJson),
    pineconeTextKey: param("textKey", toText),
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
