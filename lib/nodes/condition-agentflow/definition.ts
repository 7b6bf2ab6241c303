import { T, type NodeDefinitionSpec } from "@/common/nodes/types";
import { flowInputAnchor } from "../shared/agentflow";

/**
 * Flowise's Condition (conditionAgentflow): rules checked in order; the first that holds takes its
 * branch (`branch0`, `branch1`… one output per condition), none: `else`.
 */
export const conditionAgentflowDefinition = {
  name: "conditionAgentflow",
  version: 1,
  label: "Condition",
  category: "Agent Flows",
  description:
    "Branches on rules over strings, numbers or booleans (equal, contains, regex, larger, smaller, empty…): the first rule that holds takes its output; none: Else.",
  inputs: [
    flowInputAnchor,
    {
      kind: "param",
      name: "conditions",
      label: "Conditions",
      type: "json",
      default: [{ type: "string", value1: "", operation: "equal", value2: "" }],
      description:
        'A list of { "type": "string" | "number" | "boolean", "value1", "operation", "value2" }; values may use variables. String operations: equal, notEqual, contains, notContains, startsWith, endsWith, regex, isEmpty, notEmpty; number: equal, notEqual, larger, largerEqual, smaller, smallerEqual, isEmpty, notEmpty; boolean: equal, notEqual.',
    },
  ],
  outputs: [{ name: "else", label: "Else", types: [T.flow] }],
  capabilities: { agentflow: { role: "step", branches: "conditions" } },
} as const satisfies NodeDefinitionSpec;
