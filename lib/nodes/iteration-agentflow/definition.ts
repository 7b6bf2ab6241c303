import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { flowInputAnchor, flowOutput } from "../shared/agentflow";

/** Flowise's Iteration (iterationAgentflow): the nodes inside it run once per item of an array. */
export const iterationAgentflowDefinition = {
  name: "iterationAgentflow",
  version: 1,
  label: "Iteration",
  category: "Agent Flows",
  description:
    "Runs the nodes placed inside it once per item of an array, {{$iteration}} being the item; each pass's answer is collected in the order of the items. Passes may run side by side, at most the concurrency at once.",
  inputs: [
    flowInputAnchor,
    {
      kind: "param",
      name: "iterationInput",
      label: "Array input",
      type: "text",
      description: "A JSON array, usually a variable such as {{llmAgentflow_0.questions}}.",
    },
    {
      kind: "param",
      name: "iterationOutputStructure",
      label: "Output structure",
      type: "options",
      default: "aggregatedText",
      options: [
        { label: "Aggregated text", name: "aggregatedText", description: "The answers joined by newlines." },
        { label: "JSON array", name: "jsonArray", description: "The answers as a JSON array, one per item." },
      ],
    },
    {
      kind: "param",
      name: "iterationConcurrency",
      label: "Concurrency",
      type: "number",
      default: 1,
      integer: true,
      min: 1,
      max: 10,
      additional: true,
      description: "Passes that may run at once.",
    },
  ],
  outputs: [flowOutput],
  capabilities: { agentflow: { role: "step", container: true } },
} as const satisfies NodeDefinitionSpec;
