import { T, type NodeDefinitionSpec } from "../types";
import { openAIBaseUrlParam, openAICredentialParam } from "../shared/openai-params";

export const chatOpenAICompatibleDefinition = {
  name: "chatOpenAICompatible",
  version: 1,
  label: "OpenAI-compatible Chat Model",
  category: "Chat Models",
  description:
    "A chat model served by OpenAI or any OpenAI-compatible server (Ollama, llama.cpp server, vLLM, LM Studio) by base URL.",
  inputs: [
    openAICredentialParam,
    {
      kind: "param",
      name: "model",
      label: "Model name",
      type: "string",
      optional: true,
      placeholder: "gpt-4o-mini",
      description: "Empty: the server's OPENAI_MODEL.",
    },
    { kind: "param", name: "temperature", label: "Temperature", type: "number", default: 0.7, min: 0, max: 2 },
    {
      kind: "param",
      name: "maxTokens",
      label: "Max tokens",
      type: "number",
      optional: true,
      integer: true,
      min: 1,
      additional: true,
    },
    openAIBaseUrlParam,
    {
      kind: "param",
      name: "allowImageUploads",
      label: "Allow image uploads",
      type: "boolean",
      default: false,
      description: "Send uploaded images to the model (it must accept images).",
    },
  ],
  outputs: [{ name: "chatModel", label: "Chat model", types: [T.chatModel, T.languageModel] }],
  capabilities: { acceptsImages: { toggle: "allowImageUploads" } },
} as const satisfies NodeDefinitionSpec;
