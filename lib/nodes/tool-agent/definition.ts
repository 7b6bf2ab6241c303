import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const toolAgentDefinition = {
  name: "toolAgent",
  version: 1,
  label: "Tool Agent",
  category: "Agents",
  description:
    "An agent that talks with the user and calls tools through the chat model's function calling. A failing tool is reported to the agent, which can explain it.",
  inputs: [
    { kind: "anchor", name: "model", label: "Chat model", accepts: [T.chatModel] },
    { kind: "anchor", name: "tools", label: "Tools", accepts: [T.tool, "Toolkit"], list: true },
    { kind: "anchor", name: "memory", label: "Memory", accepts: [T.memory], optional: true },
    {
      kind: "param",
      name: "systemMessage",
      label: "System message",
      type: "text",
      editor: "prompt",
      default: "You are a helpful AI assistant. Use the tools when they help to answer.",
      additional: true,
    },
    {
      kind: "param",
      name: "maxIterations",
      label: "Max iterations",
      type: "number",
      default: 10,
      integer: true,
      min: 1,
      max: 50,
      additional: true,
    },
  ],
  outputs: [{ name: "agent", label: "Agent", types: [T.agent, T.chain] }],
} as const satisfies NodeDefinitionSpec;
