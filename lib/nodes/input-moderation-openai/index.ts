import { defineNode } from "../define";
import { inputModerationOpenAIDefinition } from "./definition";
import { buildInputModerationOpenAI } from "./runtime";

export const inputModerationOpenAI = defineNode({
  definition: inputModerationOpenAIDefinition,
  runtime: buildInputModerationOpenAI,
});
