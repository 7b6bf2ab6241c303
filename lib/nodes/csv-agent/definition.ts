import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const csvAgentDefinition = {
  name: "csvAgent",
  version: 1,
  label: "CSV Agent",
  category: "Agents",
  description:
    "Answers questions about a CSV file. The chat model queries the rows through a CSV query tool (filter, group, aggregate, sort); no code is generated or run.",
  inputs: [
    { kind: "anchor", name: "model", label: "Chat model", accepts: [T.chatModel] },
    { kind: "param", name: "file", label: "CSV file", type: "file", fileTypes: [".csv"] },
    {
      kind: "param",
      name: "systemMessage",
      label: "System message",
      type: "text",
      editor: "prompt",
      optional: true,
      additional: true,
      description: "Said to the model before the description of the data.",
    },
    {
      kind: "param",
      name: "maxIterations",
      label: "Max iterations",
      type: "number",
      default: 6,
      integer: true,
      min: 1,
      max: 20,
      additional: true,
    },
  ],
  outputs: [{ name: "agent", label: "Agent", types: [T.agent, T.chain] }],
} as const satisfies NodeDefinitionSpec;
