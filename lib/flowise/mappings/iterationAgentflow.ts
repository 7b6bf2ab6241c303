import { defineMapping, param } from "../rules";
import { stepText } from "../step-rules";

/** Flowise "Iteration" (agentflow) → our Iteration; the steps inside keep it as their parentNode. */
export const iterationAgentflow = defineMapping({
  flowise: "iterationAgentflow",
  type: "iterationAgentflow",
  step: {},
  richText: true,
  inputs: { iterationInput: param("iterationInput", stepText) },
});
