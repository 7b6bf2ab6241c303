import { anchor, defineMapping, param, toInteger } from "../rules";

/** Flowise "ReAct Agent for Chat Models" → ours (Thought / Action / Observation in the model's text). */
export const reactAgentChat = defineMapping({
  flowise: "reactAgentChat",
  type: "reactAgentChat",
  inputs: {
    tools: anchor("tools"),
    model: anchor("model"),
    memory: anchor("memory"),
    maxIterations: param("maxIterations", toInteger),
  },
});
