import { defineNode } from "../define";
import { chatPromptTemplateDefinition } from "./definition";
import { buildChatPromptTemplate } from "./runtime";

export const chatPromptTemplate = defineNode({
  definition: chatPromptTemplateDefinition,
  runtime: buildChatPromptTemplate,
});
