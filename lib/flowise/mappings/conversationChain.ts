import { anchor, defineMapping, param, toText } from "../rules";

/** Flowise "Conversation Chain" → our Conversation Chain. */
export const conversationChain = defineMapping({
  flowise: "conversationChain",
  type: "conversationChain",
  inputs: {
    model: anchor("model"),
    memory: anchor("memory"),
    systemMessagePrompt: param("systemMessage", toText),
  },
});
