import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const chatPromptTemplateDefinition = {
  name: "chatPromptTemplate",
  version: 1,
  label: "Chat Prompt Template",
  category: "Prompts",
  description: "A system message and a human message template. Variables without a value receive the question.",
  inputs: [
    {
      kind: "param",
      name: "systemMessage",
      label: "System message",
      type: "text",
      editor: "prompt",
      placeholder: "You are a helpful assistant that translates {input_language} to {output_language}.",
    },
    { kind: "param", name: "humanMessage", label: "Human message", type: "text", editor: "prompt", default: "{text}" },
    {
      kind: "param",
      name: "promptValues",
      label: "Format prompt values",
      type: "json",
      optional: true,
      additional: true,
      description: 'Fixed values for variables, e.g. {"input_language": "English"}.',
    },
  ],
  outputs: [{ name: "prompt", label: "Chat prompt", types: [T.prompt, "ChatPromptTemplate"] }],
} as const satisfies NodeDefinitionSpec;
