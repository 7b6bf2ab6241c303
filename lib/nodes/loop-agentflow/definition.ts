import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { flowInputAnchor, updateStateParam } from "../shared/agentflow";

/** Flowise's Loop (loopAgentflow): back to an earlier node, at most Max Loop Count times. */
export const loopAgentflowDefinition = {
  name: "loopAgentflow",
  version: 1,
  label: "Loop",
  category: "Agent Flows",
  description:
    "Goes back to an earlier node of the same path, at most Max Loop Count times; then the run ends here (with the fallback message when set).",
  inputs: [
    flowInputAnchor,
    {
      kind: "param",
      name: "loopBackToNode",
      label: "Loop back to",
      type: "string",
      description: "The id of an earlier node on the path to this one.",
    },
    { kind: "param", name: "maxLoopCount", label: "Max loop count", type: "number", default: 5, integer: true, min: 1 },
    { kind: "param", name: "fallbackMessage", label: "Fallback message", type: "text", optional: true },
    updateStateParam("loopUpdateState"),
  ],
  outputs: [],
  capabilities: { agentflow: { role: "step", loopTarget: "loopBackToNode" } },
} as const satisfies NodeDefinitionSpec;
