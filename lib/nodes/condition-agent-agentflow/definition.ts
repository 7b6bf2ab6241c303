import { T, type NodeDefinitionSpec } from "@/common/nodes/types";
import { flowInputAnchor } from "../shared/agentflow";

/**
 * Flowise's Condition Agent (conditionAgentAgentflow): a model picks one of named scenarios; each
 * scenario is an output (`branch0`, `branch1`…), `else` when the model names none of them.
 */
export const conditionAgentAgentflowDefinition = {
  name: "conditionAgentAgentflow",
  version: 1,
  label: "Condition Agent",
  category: "Agent Flows",
  description: "A chat model reads the input and picks one of the named scenarios; each scenario is an output.",
  inputs: [
    flowInputAnchor,
    { kind: "anchor", name: "model", label: "Chat model", accepts: [T.chatModel] },
    {
      kind: "param",
      name: "conditionAgentInstructions",
      label: "Instructions",
      type: "text",
      optional: true,
      editor: "prompt",
    },
    {
      kind: "param",
      name: "conditionAgentInput",
      label: "Input",
      type: "text",
      default: "{{question}}",
      editor: "prompt",
    },
    {
      kind: "param",
      name: "conditionAgentScenarios",
      label: "Scenarios",
      type: "json",
      default: [{ scenario: "" }],
      description: 'A list of { "scenario": "…" }: one output each, in order.',
    },
  ],
  outputs: [{ name: "else", label: "None of them", types: [T.flow] }],
  capabilities: { agentflow: { role: "step", branches: "conditionAgentScenarios" } },
} as const satisfies NodeDefinitionSpec;
