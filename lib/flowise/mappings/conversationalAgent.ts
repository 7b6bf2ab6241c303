import { anchor, defineMapping, param, toInteger, toText } from "../rules";

/** Flowise "Conversational Agent" → our Conversational Agent (JSON actions in the model's text). */
export const conversationalAgent = defineMapping({
  flowise: "conversationalAgent",
  type: "conversationalAgent",
  inputs: {
    tools: anchor("tools"),
    model: anchor("model"),
    memory: anchor("memory"),
    systemMessage: param("systemMessage", toText),
    maxIterations: param("maxIterations", toInteger),
  },
});
