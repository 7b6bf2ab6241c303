import { defineMapping, param, promptValues, toText } from "../rules";

/** Flowise "Chat Prompt Template" → our Chat Prompt Template. */
export const chatPromptTemplate = defineMapping({
  flowise: "chatPromptTemplate",
  type: "chatPromptTemplate",
  inputs: {
    systemMessagePrompt: param("systemMessage", toText),
    humanMessagePrompt: param("humanMessage", toText),
    promptValues: param("promptValues", promptValues, "chains"),
  },
  outputs: { chatPromptTemplate: "prompt" },
});
