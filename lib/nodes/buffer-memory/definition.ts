import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const bufferMemoryDefinition = {
  name: "bufferMemory",
  version: 1,
  label: "Buffer Memory",
  category: "Memory",
  description:
    "Gives the chain or agent the session's earlier messages (stored by the server per sessionId). Without a memory node, history is not used.",
  inputs: [
    {
      kind: "param",
      name: "windowSize",
      label: "Window size",
      type: "number",
      optional: true,
      integer: true,
      min: 1,
      max: 1000,
      description: "How many of the most recent past messages to read (a question and its answer are two). Empty: all.",
    },
  ],
  outputs: [{ name: "memory", label: "Memory", types: [T.memory, "BufferMemory"] }],
  capabilities: { memory: true },
} as const satisfies NodeDefinitionSpec;
