import { T, type NodeDefinitionSpec } from "@/common/nodes/types";
import { flowInputAnchor } from "../shared/agentflow";

/**
 * Flowise's Human Input (humanInputAgentflow): the run stops (paused) and asks; a resume with
 * `humanInput: { type: "proceed" | "reject", startNodeId, feedback? }` takes one of its two outputs.
 */
export const humanInputAgentflowDefinition = {
  name: "humanInputAgentflow",
  version: 1,
  label: "Human Input",
  category: "Agent Flows",
  description:
    "Stops the run and asks a person to proceed or reject (with optional feedback); the run goes on along the chosen output when they answer.",
  inputs: [
    flowInputAnchor,
    {
      kind: "param",
      name: "humanInputDescriptionType",
      label: "Description type",
      type: "options",
      default: "fixed",
      options: [
        { label: "Fixed", name: "fixed", description: "The description below." },
        { label: "Dynamic", name: "dynamic", description: "A chat model writes it from the conversation." },
      ],
    },
    {
      kind: "param",
      name: "humanInputDescription",
      label: "Description",
      type: "text",
      optional: true,
      placeholder: "Are you sure you want to proceed?",
    },
    {
      kind: "anchor",
      name: "model",
      label: "Chat model (dynamic description)",
      accepts: [T.chatModel],
      optional: true,
    },
    {
      kind: "param",
      name: "humanInputModelPrompt",
      label: "Prompt (dynamic description)",
      type: "text",
      optional: true,
      editor: "prompt",
    },
    { kind: "param", name: "humanInputEnableFeedback", label: "Enable feedback", type: "boolean", default: true },
  ],
  outputs: [
    { name: "proceed", label: "Proceed", types: [T.flow] },
    { name: "reject", label: "Reject", types: [T.flow] },
  ],
  capabilities: { agentflow: { role: "step" } },
} as const satisfies NodeDefinitionSpec;
