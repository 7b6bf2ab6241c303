import { defineNode } from "../define";
import { conversationalRetrievalQAChainDefinition } from "./definition";
import { buildConversationalRetrievalQAChain } from "./runtime";

export const conversationalRetrievalQAChain = defineNode({
  definition: conversationalRetrievalQAChainDefinition,
  runtime: buildConversationalRetrievalQAChain,
});
