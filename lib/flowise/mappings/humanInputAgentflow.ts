import { defineMapping, param, toBoolean } from "../rules";
import { embeddedModel, optionOf, stepText } from "../step-rules";

/** Flowise "Human Input" (agentflow) → our Human Input: output 0 proceeds, 1 rejects. */
export const humanInputAgentflow = defineMapping({
  flowise: "humanInputAgentflow",
  type: "humanInputAgentflow",
  step: { output: (flowiseOutput) => ({ "0": "proceed", "1": "reject" })[flowiseOutput] },
  richText: true,
  inputs: {
    humanInputDescriptionType: param("humanInputDescriptionType", optionOf("fixed", "dynamic")),
    humanInputDescription: param("humanInputDescription", stepText),
    humanInputModel: embeddedModel("humanInputModelConfig"),
    humanInputModelPrompt: param("humanInputModelPrompt", stepText),
    humanInputEnableFeedback: param("humanInputEnableFeedback", toBoolean),
  },
});
