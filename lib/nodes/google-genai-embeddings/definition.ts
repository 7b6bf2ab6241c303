import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { DT } from "../../vector/node-types";

/** Gemini's embedding task types (what the vectors are for); unspecified lets the model choose. */
export const GEMINI_TASK_TYPES = [
  "TASK_TYPE_UNSPECIFIED",
  "RETRIEVAL_QUERY",
  "RETRIEVAL_DOCUMENT",
  "SEMANTIC_SIMILARITY",
  "CLASSIFICATION",
  "CLUSTERING",
] as const;

/** Flowise's GoogleGenerativeAI Embeddings: Gemini embeddings through the Generative Language API. */
export const googleGenerativeAiEmbeddingsDefinition = {
  name: "googleGenerativeAiEmbeddings",
  version: 1,
  label: "Google Gemini Embeddings",
  category: "Embeddings",
  description: "Embeddings from Google's Gemini embedding models (Generative Language API, batchEmbedContents).",
  inputs: [
    {
      kind: "param",
      name: "credential",
      label: "Credential",
      type: "credential",
      credentialTypes: ["googleGenerativeAI"],
    },
    {
      kind: "param",
      name: "modelName",
      label: "Model name",
      type: "string",
      default: "gemini-embedding-001",
      suggestions: ["gemini-embedding-001", "text-embedding-004", "embedding-001"],
    },
    {
      kind: "param",
      name: "taskType",
      label: "Task type",
      type: "options",
      default: "TASK_TYPE_UNSPECIFIED",
      options: GEMINI_TASK_TYPES.map((name) => ({ label: name, name })),
      description: "What the vectors are for; the same type is sent for documents and questions.",
    },
    {
      kind: "param",
      name: "outputDimensionality",
      label: "Dimensions",
      type: "number",
      optional: true,
      integer: true,
      min: 1,
      max: 3072,
      additional: true,
      description: "Shorter vectors (models that allow it, e.g. gemini-embedding-001: 768, 1536 or 3072).",
    },
    {
      kind: "param",
      name: "stripNewLines",
      label: "Strip new lines",
      type: "boolean",
      default: false,
      additional: true,
      description: "Replace line breaks with spaces before embedding.",
    },
    {
      kind: "param",
      name: "batchSize",
      label: "Batch size",
      type: "number",
      default: 100,
      integer: true,
      min: 1,
      max: 100,
      additional: true,
      description: "Texts per call (Google takes at most 100).",
    },
  ],
  outputs: [{ name: "embeddings", label: "Embeddings", types: [DT.embeddings] }],
} as const satisfies NodeDefinitionSpec;
