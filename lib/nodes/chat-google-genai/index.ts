import { defineNode } from "../define";
import { chatGoogleGenerativeAIDefinition } from "./definition";
import { buildChatGoogleGenerativeAI } from "./runtime";

export const chatGoogleGenerativeAI = defineNode({
  definition: chatGoogleGenerativeAIDefinition,
  runtime: buildChatGoogleGenerativeAI,
});
