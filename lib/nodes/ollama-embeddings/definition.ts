import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { DT } from "../../vector/node-types";

export const ollamaEmbeddingsDefinition = {
  name: "ollamaEmbeddings",
  version: 1,
  label: "Ollama Embeddings",
  category: "Embeddings",
  description: "Embeddings from a model served by your Ollama (no key; its server's address).",
  inputs: [
    {
      kind: "param",
      name: "baseUrl",
      label: "Base URL",
      type: "string",
      default: "http://127.0.0.1:11434",
      pattern: "^https?://",
    },
    {
      kind: "param",
      name: "model",
      label: "Model name",
      type: "string",
      default: "nomic-embed-text",
      suggestions: ["nomic-embed-text", "mxbai-embed-large", "all-minilm", "bge-m3", "snowflake-arctic-embed"],
    },
    {
      kind: "param",
      name: "batchSize",
      label: "Batch size",
      type: "number",
      default: 64,
      integer: true,
      min: 1,
      max: 2048,
      additional: true,
    },
  ],
  outputs: [{ name: "embeddings", label: "Embeddings", types: [DT.embeddings] }],
} as const satisfies NodeDefinitionSpec;
