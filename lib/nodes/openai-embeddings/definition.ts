import { DT } from "../../vector/node-types";
import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { openAIBaseUrlParam, openAICredentialParam } from "../shared/openai-params";

export const openAIEmbeddingsDefinition = {
  name: "openAIEmbeddings",
  version: 1,
  label: "OpenAI-compatible Embeddings",
  category: "Embeddings",
  description:
    "Embeddings from OpenAI or any OpenAI-compatible server (Ollama, llama.cpp server, vLLM, LM Studio) by base URL.",
  inputs: [
    openAICredentialParam,
    {
      kind: "param",
      name: "model",
      label: "Model name",
      type: "string",
      optional: true,
      placeholder: "text-embedding-3-small",
      description: "Empty: the server's OPENAI_EMBEDDING_MODEL.",
    },
    openAIBaseUrlParam,
    {
      kind: "param",
      name: "dimensions",
      label: "Dimensions",
      type: "number",
      optional: true,
      integer: true,
      min: 1,
      max: 16_000,
      additional: true,
    },
    {
      kind: "param",
      name: "batchSize",
      label: "Batch size",
      type: "number",
      default: 512,
      integer: true,
      min: 1,
      max: 2048,
      additional: true,
    },
  ],
  outputs: [{ name: "embeddings", label: "Embeddings", types: [DT.embeddings] }],
} as const satisfies NodeDefinitionSpec;
