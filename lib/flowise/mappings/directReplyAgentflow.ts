import { defineMapping, param } from "../rules";
import { stepText } from "../step-rules";

/** Flowise "Direct Reply" (agentflow) → our Direct Reply. */
export const directReplyAgentflow = defineMapping({
  flowise: "directReplyAgentflow",
  type: "directReplyAgentflow",
  step: {},
  richText: true,
  inputs: { directReplyMessage: param("directReplyMessage", stepText) },
});
