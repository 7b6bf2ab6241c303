import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { flowInputAnchor, flowOutput, updateStateParam } from "../shared/agentflow";

/** Flowise's Execute Flow (executeFlowAgentflow): another flow's answer as this node's output. */
export const executeFlowAgentflowDefinition = {
  name: "executeFlowAgentflow",
  version: 1,
  label: "Execute Flow",
  category: "Agent Flows",
  description:
    "Asks another chatflow or agentflow (one this flow's owner may run, at its published version) and takes its answer as the output. Flows calling flows stop at a depth limit.",
  inputs: [
    flowInputAnchor,
    { kind: "param", name: "executeFlowSelectedFlow", label: "Flow id", type: "string", pattern: "^[0-9a-fA-F-]{36}$" },
    {
      kind: "param",
      name: "executeFlowInput",
      label: "Input",
      type: "text",
      default: "{{question}}",
      description: "The question the other flow answers; may use variables.",
    },
    {
      kind: "param",
      name: "executeFlowOverrideConfig",
      label: "Override config",
      type: "json",
      optional: true,
      additional: true,
      description: "Sent as the other flow's overrideConfig (its own allow-list applies).",
    },
    {
      kind: "param",
      name: "executeFlowReturnResponseAs",
      label: "Return response as",
      type: "options",
      default: "userMessage",
      options: [
        { label: "User message", name: "userMessage" },
        { label: "Assistant message", name: "assistantMessage" },
      ],
    },
    updateStateParam("executeFlowUpdateState"),
  ],
  outputs: [flowOutput],
  capabilities: { agentflow: { role: "step" } },
} as const satisfies NodeDefinitionSpec;
