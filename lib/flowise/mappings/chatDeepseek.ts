import { defineMapping } from "../rules";
import { hostedChatInputs } from "./hostedChatInputs";

/** Flowise "ChatDeepseek" → our chatDeepseek node (its key goes in a DeepSeek credential). */
export const chatDeepseek = defineMapping({
  flowise: "chatDeepseek",
  type: "chatDeepseek",
  credential: "credential",
  inputs: hostedChatInputs,
});
