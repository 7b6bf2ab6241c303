import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const replicateLLMDefinition = {
  name: "replicateLLM",
  version: 1,
  label: "Replicate (text model)",
  category: "Chat Models",
  description:
    "A text-generation model run on Replicate (Llama, Mistral, …) for chains: the prompt in, its text out. No tool calling.",
  inputs: [
    { kind: "param", name: "credential", label: "Credential", type: "credential", credentialTypes: ["replicate"] },
    {
      kind: "param",
      name: "model",
      label: "Model",
      type: "string",
      pattern: "^[A-Za-z0-9._-]+/[A-Za-z0-9._-]+(:[0-9a-f]{64})?$",
      placeholder: "meta/meta-llama-3-8b-instruct",
      suggestions: [
        "meta/meta-llama-3-8b-instruct",
        "meta/meta-llama-3-70b-instruct",
        "mistralai/mixtral-8x7b-instruct-v0.1",
      ],
      description: "owner/name, or owner/name:version for a pinned version.",
    },
    { kind: "param", name: "temperature", label: "Temperature", type: "number", default: 0.7, min: 0.01, max: 5 },
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
    { kind: "param", name: "topP", label: "Top P", type: "number", optional: true, min: 0, max: 1, additional: true },
    {
      kind: "param",
      name: "repetitionPenalty",
      label: "Repetition penalty",
      type: "number",
      optional: true,
      min: 0.01,
      max: 5,
      additional: true,
    },
    {
      kind: "param",
      name: "additionalInputs",
      label: "More model inputs",
      type: "json",
      optional: true,
      additional: true,
      description: 'Other inputs the model takes, e.g. {"system_prompt": "…"} (see the model\'s API page).',
    },
  ],
  outputs: [{ name: "chatModel", label: "Chat model", types: [T.chatModel, T.languageModel] }],
} as const satisfies NodeDefinitionSpec;
