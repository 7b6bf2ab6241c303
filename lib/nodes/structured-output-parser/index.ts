import { defineNode } from "../define";
import { structuredOutputParserDefinition } from "./definition";
import { buildStructuredOutputParser } from "./runtime";

export const structuredOutputParser = defineNode({
  definition: structuredOutputParserDefinition,
  runtime: buildStructuredOutputParser,
});
