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
    model: ignore(
      "the index's LLM is not needed: the chain connected to the store has its own model",
      undefined,
      "the LlamaIndex store's model is not carried over: the chat engine's model answers",
    ),
    pineconeIndex: param("indexName", toText),
    pineconeNamespace: param("namespace", toText),
    pineconeMetadataFilter: param("metadataFilter", toJson),
    topK: param("topK", toInteger),
  },
  outputs: { retriever: "retriever", pineconeLlamaIndex: "retriever" },
});
