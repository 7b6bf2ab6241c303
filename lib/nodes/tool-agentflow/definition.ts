import { T, type NodeDefinitionSpec } from "@/common/nodes/types";
import { flowInputAnchor, flowOutput, updateStateParam } from "../shared/agentflow";

/** Flowise's Tool (toolAgentflow): one tool called with arguments from variables. */
export const toolAgentflowDefinition = {
  name: "toolAgentflow",
  version: 1,
  label: "Tool",
  category: "Agent Flows",
  description:
    "Calls one tool (any tool node) with arguments the builder sets from variables; its answer is the output. A failing tool fails the node.",
  inputs: [
    flowInputAnchor,
    { kind: "anchor", name: "tool", label: "Tool", accepts: [T.tool] },
    {
      kind: "param",
      name: "toolInputArgs",
      label: "Tool input arguments",
      type: "json",
      optional: true,
      description:
        'A list of { "inputArgName", "inputArgValue" }; values may use variables, and a value that is JSON (an object or array) is sent parsed.',
    },
    updateStateParam("toolUpdateState"),
  ],
  outputs: [flowOutput],
  capabilities: { agentflow: { role: "step" } },
} as const satisfies NodeDefinitionSpec;
