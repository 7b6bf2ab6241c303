import type { ParamInputSpec } from "@/common/nodes/types";

/** The credential param of every OpenAI-compatible node (read by resolveOpenAIConnection). */
export const openAICredentialParam = {
  kind: "param",
  name: "credential",
  label: "Credential",
  type: "credential",
  credentialTypes: ["openai"],
  optional: true,
  description: "API key (and optional base URL). Without one, the server's OPENAI_API_KEY / OPENAI_BASE_URL apply.",
} as const satisfies ParamInputSpec;

/** The base-URL param of every OpenAI-compatible node: Ollama, llama.cpp server, vLLM, LM Studio… */
export const openAIBaseUrlParam = {
  kind: "param",
  name: "baseURL",
  label: "Base URL",
  type: "string",
  optional: true,
  placeholder: "http://127.0.0.1:11434/v1",
  pattern: "^https?://",
  additional: true,
  description: "Overrides the credential's and the server's base URL.",
} as const satisfies ParamInputSpec;
