import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const chainToolDefinition = {
  name: "chainTool",
  version: 1,
  label: "Chain Tool",
  category: "Tools",
  description: "Makes any chain a tool an agent can call with a text input.",
  inputs: [
    { kind: "anchor", name: "chain", label: "Chain", accepts: [T.chain] },
    {
      kind: "param",
      name: "name",
      label: "Tool name",
      type: "string",
      pattern: "^[A-Za-z0-9_-]{1,64}$",
      placeholder: "product_search",
      description: "Letters, digits, _ and - only.",
    },
    {
      kind: "param",
      name: "description",
      label: "Description",
      type: "text",
      placeholder: "Finds products in the shop. Input: what the user is looking for, with country and budget.",
      description: "Tells the agent when to use this tool and what input to give.",
    },
    {
      kind: "param",
      name: "returnDirect",
      label: "Return directly",
      type: "boolean",
      default: false,
      additional: true,
      description: "Answer the user with the tool's output instead of letting the agent phrase it.",
    },
  ],
  outputs: [{ name: "tool", label: "Tool", types: [T.tool, "ChainTool"] }],
} as const satisfies NodeDefinitionSpec;
