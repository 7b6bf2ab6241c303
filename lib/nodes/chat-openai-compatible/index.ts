import { defineNode } from "../define";
import { chatOpenAICompatibleDefinition } from "./definition";
import { buildChatOpenAICompatible } from "./runtime";

export const chatOpenAICompatible = defineNode({
  definition: chatOpenAICompatibleDefinition,
  runtime: buildChatOpenAICompatible,
});
