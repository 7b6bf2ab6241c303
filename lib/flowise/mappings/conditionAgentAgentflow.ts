import { branchOutput } from "../convert-steps";
import { defineMapping, ignore, param } from "../rules";
import { embeddedModel, jsonList, offOnly, stepText } from "../step-rules";

/** Flowise "Condition Agent" (agentflow) → our Condition Agent: output N is the N-th scenario. */
export const conditionAgentAgentflow = defineMapping({
  flowise: "conditionAgentAgentflow",
  type: "conditionAgentAgentflow",
  step: { output: branchOutput("conditionAgentScenarios") },
  richText: true,
  inputs: {
    conditionAgentModel: embeddedModel("conditionAgentModelConfig"),
    conditionAgentInstructions: param("conditionAgentInstructions", stepText),
    conditionAgentInput: param("conditionAgentInput", stepText),
    conditionAgentScenarios: param("conditionAgentScenarios", jsonList),
    conditionAgentOverrideSystemPrompt: offOnly("a system prompt of one's own for the scenario choice"),
    conditionAgentSystemPrompt: ignore("used only when the system prompt is overridden"),
  },
});
