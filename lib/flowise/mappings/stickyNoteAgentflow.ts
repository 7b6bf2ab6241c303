import { defineMapping, param } from "../rules";
import { stepText } from "../step-rules";

/** Flowise "Sticky Note" (agentflow) → our Sticky Note (never connected, never run). */
export const stickyNoteAgentflow = defineMapping({
  flowise: "stickyNoteAgentflow",
  type: "stickyNoteAgentflow",
  inputs: { note: param("note", stepText) },
});
