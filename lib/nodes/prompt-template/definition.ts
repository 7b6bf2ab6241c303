import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const promptTemplateDefinition = {
  name: "promptTemplate",
  version: 1,
  label: "Prompt Template",
  category: "Prompts",
  description:
    "A text prompt with {variables}. Variables without a value receive the user's question; a value may be {{question}}, {{chat_history}} or {{nodeId}} of a chain connected to “Chain outputs”.",
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
      variablesFrom: "chains",
      description:
        'Values for variables, e.g. {"product": "socks"}; {"result": "{{llmChain_0}}"} takes the answer of a connected chain, {{chat_history}} the conversation so far.',
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
  outputs: [{ name: "prompt", label: "Prompt", types: [T.prompt, "PromptTemplate"] }],
} as const satisfies NodeDefinitionSpec;
