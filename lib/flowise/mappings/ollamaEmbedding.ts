import { defineMapping, ignore, param, toHttpUrl, toText } from "../rules";

/** Flowise "Ollama Embeddings" → ours (GPU and thread settings stay the Ollama server's). */
export const ollamaEmbedding = defineMapping({
  flowise: "ollamaEmbedding",
  type: "ollamaEmbeddings",
  inputs: {
    baseUrl: param("baseUrl", toHttpUrl),
    modelName: param("model", toText),
    numGpu: ignore(
      "GPU layers are the Ollama server's setting",
      undefined,
      "numGpu is not carried over: set it on the Ollama server",
    ),
    numThread: ignore(
      "threads are the Ollama server's setting",
      undefined,
      "numThread is not carried over: set it on the Ollama server",
    ),
    useMMap: ignore("memory mapping is the Ollama server's setting"),
  },
  outputs: { ollamaEmbedding: "embeddings" },
});
