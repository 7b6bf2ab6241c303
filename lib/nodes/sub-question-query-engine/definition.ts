import { T, type NodeDefinitionSpec } from "@/common/nodes/types";
import { QT } from "../shared/query-engine-data";

/** LlamaIndex's Sub Question Query Engine: a question split across query engine tools, the answers synthesised. */
export const subQuestionQueryEngineDefinition = {
  name: "subQuestionQueryEngine",
  version: 1,
  label: "Sub Question Query Engine",
  category: "Chains",
  description:
    "Splits a question into sub-questions for the query engine tools whose documents answer them (the model answers with JSON), asks each, and synthesises one answer from their answers.",
  inputs: [
    { kind: "anchor", name: "model", label: "Chat model", accepts: [T.chatModel] },
    {
      kind: "anchor",
      name: "queryEngineTools",
      label: "Query engine tools",
      accepts: [QT.queryEngineTool],
      list: true,
    },
    {
      kind: "anchor",
      name: "responseSynthesizer",
      label: "Response synthesizer",
      accepts: [QT.responseSynthesizer],
      optional: true,
    },
    {
      kind: "param",
      name: "returnSourceDocuments",
      label: "Report source documents",
      type: "boolean",
      default: true,
      additional: true,
    },
  ],
  outputs: [{ name: "chain", label: "Chain", types: [T.chain] }],
} as const satisfies NodeDefinitionSpec;
