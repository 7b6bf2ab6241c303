import { defineMapping } from "../rules";
import { hostedChatInputs } from "./hostedChatInputs";

/** Flowise "GroqChat" → our chatGroq node (its key goes in a Groq credential). */
export const groqChat = defineMapping({
  flowise: "groqChat",
  type: "chatGroq",
  credential: "credential",
  inputs: hostedChatInputs,
});
