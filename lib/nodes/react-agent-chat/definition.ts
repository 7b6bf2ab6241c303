import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const reactAgentChatDefinition = {
  name: "reactAgentChat",
  version: 1,
  label: "ReAct Agent for Chat Models",
  category: "Agents",
  description:
    "An agent that reasons step by step (Thought, Action, Observation) in its text, so any chat model can drive it (for models with function calling, the Tool Agent is more reliable).",
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
      default:
        "You are a helpful assistant for a wide range of tasks: answering questions, explaining and discussing topics. Use the tools when they help to answer.",
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
