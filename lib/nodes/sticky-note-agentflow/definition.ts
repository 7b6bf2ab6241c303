import type { NodeDefinitionSpec } from "@/common/nodes/types";

/** Flowise's Sticky Note (stickyNoteAgentflow): a note on the canvas; never connected, never run. */
export const stickyNoteAgentflowDefinition = {
  name: "stickyNoteAgentflow",
  version: 1,
  label: "Sticky Note",
  category: "Agent Flows",
  description: "A note on the canvas for the people who read the flow; it never runs.",
  inputs: [{ kind: "param", name: "note", label: "Note", type: "text", default: "" }],
  outputs: [],
  capabilities: { agentflow: { role: "note" } },
} as const satisfies NodeDefinitionSpec;
