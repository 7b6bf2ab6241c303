import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { QT } from "../shared/query-engine-data";

/** LlamaIndex's Query Engine Tool: a query engine with the name and description a sub-question engine picks it by. */
export const queryEngineToolDefinition = {
  name: "queryEngineTool",
  version: 1,
  label: "Query Engine Tool",
  category: "Tools",
  description:
    "A query engine offered to a Sub Question Query Engine under a name and a description: the model sends it the sub-questions its documents answer.",
  inputs: [
    { kind: "anchor", name: "queryEngine", label: "Query engine", accepts: [QT.queryEngine] },
    {
      kind: "param",
      name: "toolName",
      label: "Tool name",
      type: "string",
      pattern: "^[a-zA-Z0-9_-]{1,64}$",
    },
    {
      kind: "param",
      name: "description",
      label: "Description",
      type: "text",
      description: "What its documents are about: the model chooses the tool by it.",
    },
  ],
  outputs: [{ name: "queryEngineTool", label: "Query engine tool", types: [QT.queryEngineTool] }],
} as const satisfies NodeDefinitionSpec;
