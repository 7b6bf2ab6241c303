import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const promptTemplateDefinition = {
  name: "promptTemplate",
  version: 1,
  label: "Prompt Template",
  category: "Prompts",
  description: "A text prompt with {variables}. Variables without a value receive the user's question.",
  inputs: [
    {
      kind: "param",
      name: "template",
      label: "Template",
      type: "text",
      editor: "prompt",
      placeholder: "What is a good name for a company that makes {product}?",
    },
    {
      kind: "param",
      name: "promptValues",
      label: "Format prompt values",
      type: "json",
      optional: true,
      additional: true,
      description: 'Fixed values for variables, e.g. {"product": "socks"}.',
    },
  ],
  outputs: [{ name: "prompt", label: "Prompt", types: [T.prompt, "PromptTemplate"] }],
} as const satisfies NodeDefinitionSpec;
