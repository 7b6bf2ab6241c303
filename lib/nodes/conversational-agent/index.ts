import { defineNode } from "../define";
import { conversationalAgentDefinition } from "./definition";
import { buildConversationalAgent } from "./runtime";

export const conversationalAgent = defineNode({
  definition: conversationalAgentDefinition,
  runtime: buildConversationalAgent,
});
