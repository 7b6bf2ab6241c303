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
      variablesFrom: "chains",
      description:
        'Values for variables, e.g. {"input_language": "English"}; {{question}}, {{chat_history}} or {{nodeId}} of a chain connected to “Chain outputs”.',
    },
    {
      kind: "anchor",
      name: "chains",
      label: "Chain outputs",
      accepts: [T.prediction],
      optional: true,
      list: true,
      description: "LLM chains whose answer fills a variable (named as {{nodeId}} in the prompt values).",
    },
  ],
  outputs: [{ name: "prompt", label: "Chat prompt", types: [T.prompt, "ChatPromptTemplate"] }],
} as const satisfies NodeDefinitionSpec;
