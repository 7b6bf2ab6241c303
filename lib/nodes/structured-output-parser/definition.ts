import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const structuredOutputParserDefinition = {
  name: "structuredOutputParser",
  version: 1,
  label: "Structured Output Parser",
  category: "Output Parsers",
  description:
    "Asks the LLM chain's model for one JSON object with the named fields and answers it as JSON. An answer out of format gets one repair attempt, then the run fails (502) naming the parser.",
  inputs: [
    {
      kind: "param",
      name: "fields",
      label: "JSON structure",
      type: "json",
      default: [
        { property: "answer", type: "string", description: "answer to the user's question" },
        { property: "source", type: "string", description: "sources used to answer the question, should be websites" },
      ],
      description:
        'The fields of the answer: a list of {"property", "type" (string, number, boolean or string[]), "description"}.',
    },
  ],
  outputs: [{ name: "parser", label: "Output parser", types: [T.outputParser, "StructuredOutputParser"] }],
} as const satisfies NodeDefinitionSpec;
