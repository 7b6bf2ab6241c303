import { anchor, defineMapping, param, toText } from "../rules";
import { llamaIndexNote } from "./llamaIndex";

/** Flowise "Simple Chat Engine" (LlamaIndex: a model with memory) → our Conversation Chain. */
export const simpleChatEngine = defineMapping({
  flowise: "simpleChatEngine",
  type: "conversationChain",
  note: llamaIndexNote("Simple Chat Engine", "Conversation Chain"),
  inputs: {
    model: anchor("model"),
    memory: anchor("memory"),
    systemMessagePrompt: param("systemMessage", toText),
  },
  outputs: { simpleChatEngine: "chain" },
});
