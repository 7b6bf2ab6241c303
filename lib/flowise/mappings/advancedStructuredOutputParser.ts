import { defineMapping, ignore, param } from "../rules";
import { zodText } from "../zod-text";

/** Flowise "Advanced Structured Output Parser" → ours: its zod schema (JavaScript text) as a JSON schema. */
export const advancedStructuredOutputParser = defineMapping({
  flowise: "advancedStructuredOutputParser",
  type: "advancedStructuredOutputParser",
  inputs: {
    autofixParser: ignore("our output parsers always make one repair attempt when the answer is out of format"),
    exampleJson: param("schema", zodText),
  },
  outputs: { advancedStructuredOutputParser: "parser" },
});
