import { defineNode } from "../define";
import { advancedStructuredOutputParserDefinition } from "./definition";
import { buildAdvancedStructuredOutputParser } from "./runtime";

export const advancedStructuredOutputParser = defineNode({
  definition: advancedStructuredOutputParserDefinition,
  runtime: buildAdvancedStructuredOutputParser,
});
