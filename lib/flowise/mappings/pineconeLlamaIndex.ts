import { anchor, defineMapping, ignore, param, toInteger, toJson, toText } from "../rules";
import { llamaIndexNote } from "./llamaIndex";

/** Flowise "Pinecone" (LlamaIndex) → our Pinecone store (its LLM input is not needed to search). */
export const pineconeLlamaIndex = defineMapping({
  flowise: "pineconeLlamaIndex",
  type: "pineconeStore",
  credential: "credential",
  note: llamaIndexNote("Pinecone", "Vector Store (Pinecone)"),
  inputs: {
    document: anchor("document"),
    embeddings: anchor("embeddings"),
    // A query engine connected to the store takes this model (its mapping borrows it).
    model: ignore(
      "the index's LLM is not needed: the chain connected to the store has its own model",
      undefined,
      "the LlamaIndex store's model is not part of our store: a chat engine's own model answers, a query engine takes this one",
    ),
    pineconeIndex: param("indexName", toText),
    pineconeNamespace: param("namespace", toText),
    pineconeMetadataFilter: param("metadataFilter", toJson),
    topK: param("topK", toInteger),
  },
  outputs: { retriever: "retriever", pineconeLlamaIndex: "retriever" },
});
