import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const advancedStructuredOutputParserDefinition = {
  name: "advancedStructuredOutputParser",
  version: 1,
  label: "Advanced Structured Output Parser",
  category: "Output Parsers",
  description:
    "Asks the LLM chain's model for one JSON value matching a JSON schema and answers it as JSON. An answer out of format gets one repair attempt, then the run fails (502) naming the parser.",
  inputs: [
    {
      kind: "param",
      name: "schema",
      label: "JSON schema",
      type: "json",
      description:
        'The JSON schema of the answer, e.g. {"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}. A Flowise zod schema is converted on import.',
    },
  ],
  outputs: [{ name: "parser", label: "Output parser", types: [T.outputParser, "AdvancedStructuredOutputParser"] }],
} as const satisfies NodeDefinitionSpec;
