import { branchOutput } from "../convert-steps";
import { defineMapping, param } from "../rules";
import { jsonList } from "../step-rules";

/** Flowise "Condition" (agentflow) → our Condition: output N is the N-th condition's branch, the last else. */
export const conditionAgentflow = defineMapping({
  flowise: "conditionAgentflow",
  type: "conditionAgentflow",
  step: { output: branchOutput("conditions") },
  richText: true,
  inputs: { conditions: param("conditions", jsonList) },
});
