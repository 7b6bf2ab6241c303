import { defineNode } from "../define";
import { conversationChainDefinition } from "./definition";
import { buildConversationChain } from "./runtime";

export const conversationChain = defineNode({
  definition: conversationChainDefinition,
  runtime: buildConversationChain,
});
