import { DT } from "../../vector/node-types";
import { T, type NodeDefinitionSpec } from "@/common/nodes/types";
import { QT } from "../shared/query-engine-data";

/** LlamaIndex's Query Engine on our retrievers: one question answered from documents, no conversation. */
export const queryEngineDefinition = {
  name: "queryEngine",
  version: 1,
  label: "Query Engine",
  category: "Chains",
  description:
    "Answers one question from documents, without the conversation: finds the chunks for it, then a response synthesizer (compact and refine when none is connected) makes the answer. Also feeds a Query Engine Tool.",
  inputs: [
    { kind: "anchor", name: "model", label: "Chat model", accepts: [T.chatModel] },
    { kind: "anchor", name: "retriever", label: "Retriever", accepts: [DT.retriever] },
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
  outputs: [{ name: "queryEngine", label: "Query engine", types: [T.chain, QT.queryEngine] }],
} as const satisfies NodeDefinitionSpec;
