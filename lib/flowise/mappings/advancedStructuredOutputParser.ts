import { defineMapping, ignore, param } from "../rules";
import type { Convert } from "../types";
import { ZodTextError, zodTextToJsonSchema } from "../zod-text";

/** A zod schema written as text → its JSON schema, read (never evaluated); other forms are dropped by name. */
const zodText: Convert = (value) => {
  if (typeof value !== "string") return { drop: "is not a zod schema as text" };
  try {
    return { value: zodTextToJsonSchema(value) };
  } catch (e) {
    if (e instanceof ZodTextError) return { drop: `the zod schema cannot be read without running it: ${e.message}` };
    throw e;
  }
};

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
