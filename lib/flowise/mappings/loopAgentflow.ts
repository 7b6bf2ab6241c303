import { defineMapping, param, toInteger } from "../rules";
import { jsonList, stepText } from "../step-rules";

/** Flowise "Loop" (agentflow) → our Loop (its target kept as Flowise writes it: `<id>-<label>`). */
export const loopAgentflow = defineMapping({
  flowise: "loopAgentflow",
  type: "loopAgentflow",
  step: {},
  richText: true,
  inputs: {
    loopBackToNode: param("loopBackToNode", stepText),
    maxLoopCount: param("maxLoopCount", toInteger),
    fallbackMessage: param("fallbackMessage", stepText),
    loopUpdateState: param("loopUpdateState", jsonList),
  },
});
