import type { AgentflowStep } from "../../agentflow/types";
import { defineNode } from "../define";
import { stickyNoteAgentflowDefinition } from "./definition";

/** A note is never connected, so the engine never reaches it; its step answers nothing if it did. */
export const stickyNoteAgentflow = defineNode({
  definition: stickyNoteAgentflowDefinition,
  runtime: async () => {
    const step: AgentflowStep = { agentflowStep: true, run: async () => ({ output: { content: "" } }) };
    return step;
  },
});
