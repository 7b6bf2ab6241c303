import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const chatAnthropicDefinition = {
  name: "chatAnthropic",
  version: 1,
  label: "Anthropic Chat Model",
  category: "Chat Models",
  description: "A Claude chat model from Anthropic.",
  inputs: [
    { kind: "param", name: "credential", label: "Credential", type: "credential", credentialTypes: ["anthropic"] },
    { kind: "param", name: "model", label: "Model name", type: "string", default: "claude-sonnet-4-5" },
    { kind: "param", name: "temperature", label: "Temperature", type: "number", default: 0.7, min: 0, max: 1 },
    {
      kind: "param",
      name: "maxTokens",
      label: "Max tokens",
      type: "number",
      default: 2048,
      integer: true,
      min: 1,
      additional: true,
    },
    {
      kind: "param",
      name: "allowImageUploads",
      label: "Allow image uploads",
      type: "boolean",
      default: false,
      description: "Send uploaded images to the model.",
    },
  ],
  outputs: [{ name: "chatModel", label: "Chat model", types: [T.chatModel, T.languageModel] }],
  capabilities: { acceptsImages: { toggle: "allowImageUploads" } },
} as const satisfies NodeDefinitionSpec;
