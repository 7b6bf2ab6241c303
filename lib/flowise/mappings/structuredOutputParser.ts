import { defineMapping, ignore, param, toJson } from "../rules";

/** Flowise "Structured Output Parser" → ours: its JSON structure (a grid of property, type, description) as our fields. */
export const structuredOutputParser = defineMapping({
  flowise: "structuredOutputParser",
  type: "structuredOutputParser",
  inputs: {
    autofixParser: ignore("our output parsers always make one repair attempt when the answer is out of format"),
    jsonStructure: param("fields", toJson),
  },
  outputs: { structuredOutputParser: "parser" },
});
