import { defineMapping, param, promptValues, toText } from "../rules";

/** Flowise "Prompt Template" → our Prompt Template. */
export const promptTemplate = defineMapping({
  flowise: "promptTemplate",
  type: "promptTemplate",
  inputs: {
    template: param("template", toText),
    promptValues: param("promptValues", promptValues, "chains"),
  },
  outputs: { promptTemplate: "prompt" },
});
