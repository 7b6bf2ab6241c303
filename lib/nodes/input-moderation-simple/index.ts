import { defineNode } from "../define";
import { inputModerationSimpleDefinition } from "./definition";
import { buildInputModerationSimple } from "./runtime";

export const inputModerationSimple = defineNode({
  definition: inputModerationSimpleDefinition,
  runtime: buildInputModerationSimple,
});
