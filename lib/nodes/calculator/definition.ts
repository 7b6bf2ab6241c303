import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const calculatorDefinition = {
  name: "calculator",
  version: 1,
  label: "Calculator",
  category: "Tools",
  description:
    "Lets an agent do arithmetic: + - * / % ^, parentheses, pi, e and functions such as sqrt, abs, round, min, max. Evaluated by a small parser, never as code.",
  inputs: [
    {
      kind: "param",
      name: "name",
      label: "Tool name",
      type: "string",
      default: "calculator",
      pattern: "^[a-zA-Z0-9_-]{1,64}$",
      additional: true,
    },
    {
      kind: "param",
      name: "description",
      label: "Description",
      type: "text",
      default:
        "Useful for getting the result of a math expression. The input is a valid arithmetic expression such as (2 + 3) * 4, 2 ^ 10 or sqrt(16) / 2.",
      additional: true,
      description: "Tells the agent when to use the tool.",
    },
  ],
  outputs: [{ name: "tool", label: "Tool", types: [T.tool] }],
} as const satisfies NodeDefinitionSpec;
