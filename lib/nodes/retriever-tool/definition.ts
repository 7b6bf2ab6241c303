import { DT } from "../../vector/node-types";
import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const retrieverToolDefinition = {
  name: "retrieverTool",
  version: 1,
  label: "Retriever Tool",
  category: "Tools",
  description:
    "Lets an agent search documents: the tool returns the chunks a retriever (vector or keyword store) finds for the agent's query.",
  inputs: [
    { kind: "anchor", name: "retriever", label: "Retriever", accepts: [DT.retriever], list: true },
    {
      kind: "param",
      name: "name",
      label: "Tool name",
      type: "string",
      default: "search_documents",
      pattern: "^[a-zA-Z0-9_-]{1,64}$",
    },
    {
      kind: "param",
      name: "description",
      label: "Description",
      type: "text",
      default:
        "Searches the documents for passages relevant to the query. Use it to answer questions about their content.",
      description: "Tells the agent when to use the tool.",
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
  outputs: [{ name: "tool", label: "Tool", types: [T.tool] }],
} as const satisfies NodeDefinitionSpec;
