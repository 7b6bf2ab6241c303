import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const csvOutputParserDefinition = {
  name: "csvOutputParser",
  version: 1,
  label: "CSV Output Parser",
  category: "Output Parsers",
  description:
    "Asks the LLM chain's model for a comma-separated list on one line and answers it as a JSON list. An answer out of format gets one repair attempt, then the run fails (502) naming the parser.",
  inputs: [],
  outputs: [{ name: "parser", label: "Output parser", types: [T.outputParser, "CSVListOutputParser"] }],
} as const satisfies NodeDefinitionSpec;
