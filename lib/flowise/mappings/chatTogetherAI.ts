import { defineMapping } from "../rules";
import { hostedChatInputs } from "./hostedChatInputs";

/** Flowise "ChatTogetherAI" → our chatTogetherAI node (its key goes in a Together AI credential). */
export const chatTogetherAI = defineMapping({
  flowise: "chatTogetherAI",
  type: "chatTogetherAI",
  credential: "credential",
  inputs: hostedChatInputs,
});
