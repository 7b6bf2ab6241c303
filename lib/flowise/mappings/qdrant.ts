import { anchor, defineMapping, ignore, oneOf, param, toHttpUrl, toInteger, toJson, toText } from "../rules";

/**
 * Flowise "Qdrant" → our Qdrant store: the same server, collection, similarity and search filter;
 * points are read with LangChain's payload layout (content, metadata), as Flowise wrote them. The
 * collection's dimension is read from the collection (or taken from the embeddings when we make it),
 * so Flowise's vector dimension and extra collection settings are not needed.
 */
export const qdrant = defineMapping({
  flowise: "qdrant",
  type: "qdrantStore",
  credential: "credential",
  inputs: {
    document: anchor("document"),
    embeddings: anchor("embeddings"),
    qdrantServerUrl: param("url", toHttpUrl),
    qdrantCollection: param("collection", toText),
    qdrantSimilarity: param("distance", toText),
    qdrantFilter: param("filter", toJson),
    topK: param("topK", toInteger),
    qdrantVectorDimension: ignore("the dimension is read from the collection, or from the embeddings when it is made"),
    qdrantCollectionConfiguration: ignore(
      "a collection made here gets Qdrant's defaults",
      undefined,
      "the additional collection configuration is not carried over: a collection made here gets Qdrant's defaults",
    ),
    contentPayloadKey: param("contentKey", toText),
    metadataPayloadKey: param("metadataKey", toText),
    batchSize: ignore("points are written in batches of 100"),
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
