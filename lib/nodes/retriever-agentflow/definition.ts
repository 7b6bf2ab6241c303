import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { DT } from "../../vector/node-types";
import { flowInputAnchor, flowOutput, updateStateParam } from "../shared/agentflow";

/** Flowise's Retriever (retrieverAgentflow): a query against stores, the chunks as output. */
export const retrieverAgentflowDefinition = {
  name: "retrieverAgentflow",
  version: 1,
  label: "Retriever",
  category: "Agent Flows",
  description:
    "Searches the connected stores (vector or keyword) with a query; the chunks found are the output, as text or as text with their metadata ({{nodeId.documents}} lists them).",
  inputs: [
    flowInputAnchor,
    { kind: "anchor", name: "knowledge", label: "Stores", accepts: [DT.retriever], list: true },
    {
      kind: "param",
      name: "retrieverQuery",
      label: "Retriever query",
      type: "text",
      optional: true,
      description: "What to search for; may use variables. Empty: the question.",
    },
    {
      kind: "param",
      name: "outputFormat",
      label: "Output format",
      type: "options",
      default: "text",
      options: [
        { label: "Text", name: "text" },
        { label: "Text with metadata", name: "textWithMetadata" },
      ],
    },
    updateStateParam("retrieverUpdateState"),
  ],
  outputs: [flowOutput],
  capabilities: { agentflow: { role: "step" } },
} as const satisfies NodeDefinitionSpec;
