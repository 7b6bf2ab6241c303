import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { flowOutput } from "../shared/agentflow";

/** Flowise's Start (startAgentflow): where an agentflow begins, from a chat message or a form. */
export const startAgentflowDefinition = {
  name: "startAgentflow",
  version: 1,
  label: "Start",
  category: "Agent Flows",
  description: "Where an agentflow begins: a chat message, or a form with typed fields; sets the initial flow state.",
  inputs: [
    {
      kind: "param",
      name: "startInputType",
      label: "Input type",
      type: "options",
      default: "chatInput",
      options: [
        { label: "Chat input", name: "chatInput", description: "The run starts from the question." },
        { label: "Form input", name: "formInput", description: "The run starts from a form's fields ($form.name)." },
      ],
    },
    { kind: "param", name: "formTitle", label: "Form title", type: "string", optional: true },
    { kind: "param", name: "formDescription", label: "Form description", type: "string", optional: true },
    {
      kind: "param",
      name: "formInputTypes",
      label: "Form fields",
      type: "json",
      optional: true,
      description:
        'A list of { "type": "string" | "number" | "boolean" | "options", "label", "name", "addOptions": [{ "option" }] }.',
    },
    {
      kind: "param",
      name: "startState",
      label: "Initial flow state",
      type: "json",
      optional: true,
      description: 'A list of { "key", "value" }: the flow state ($flow.state.key) a run starts with.',
    },
    {
      kind: "param",
      name: "ephemeralMemory",
      label: "Ephemeral memory",
      type: "boolean",
      default: false,
      description:
        "Each run starts without the conversation's earlier messages: steps with memory see only this run's messages.",
    },
  ],
  outputs: [flowOutput],
  capabilities: { agentflow: { role: "start" } },
} as const satisfies NodeDefinitionSpec;
