import { defineMapping, ignore, param, toHttpUrl, toText } from "../rules";
import { llamaIndexNote } from "./llamaIndex";

/** Flowise "OpenAI Embedding" (LlamaIndex) → our OpenAI-compatible embeddings. */
export const openAIEmbedding_LlamaIndex = defineMapping({
  flowise: "openAIEmbedding_LlamaIndex",
  type: "openAIEmbeddings",
  credential: "credential",
  note: llamaIndexNote("OpenAI Embedding", "OpenAI-compatible Embeddings"),
  inputs: {
    modelName: param("model", toText),
    basepath: param("baseURL", toHttpUrl),
    timeout: ignore(
      "the server's MODEL_TIMEOUT_MS is the embeddings deadline",
      undefined,
      "the embeddings timeout is not carried over: the server's MODEL_TIMEOUT_MS applies",
    ),
  },
  outputs: { openAIEmbedding_LlamaIndex: "embeddings" },
});
