import { T, type NodeDefinitionSpec } from "@/common/nodes/types";
import { DT } from "../../vector/node-types";
import { flowInputAnchor, flowOutput, updateStateParam } from "../shared/agentflow";
import { memoryParams } from "../shared/memory-summary";

/** Flowise's Agent (agentAgentflow): a chat model calling tools, with knowledge, memory and an iteration cap. */
export const agentAgentflowDefinition = {
  name: "agentAgentflow",
  version: 1,
  label: "Agent",
  category: "Agent Flows",
  description:
    "A chat model that calls tools (any tool node) and searches knowledge (vector or keyword stores) until it can answer: role messages, the conversation as memory (all, the last N messages, a summary, or a summary plus the last messages within a token limit), at most N rounds of tool calls; can write to the flow state.",
  inputs: [
    flowInputAnchor,
    { kind: "anchor", name: "model", label: "Chat model", accepts: [T.chatModel] },
    { kind: "anchor", name: "tools", label: "Tools", accepts: [T.tool], list: true, optional: true },
    {
      kind: "anchor",
      name: "knowledge",
      label: "Knowledge",
      accepts: [DT.retriever],
      list: true,
      optional: true,
      description: "Stores the agent may search (one search tool over all of them).",
    },
    {
      kind: "param",
      name: "agentMessages",
      label: "Messages",
      type: "json",
      optional: true,
      description:
        'A list of { "role": "system" | "assistant" | "developer" | "user", "content" }; content may use variables.',
    },
    {
      kind: "param",
      name: "agentKnowledgeDescription",
      label: "Describe knowledge",
      type: "text",
      default: "Searches the knowledge base for passages relevant to the query.",
      additional: true,
      description: "Tells the agent when to search the connected stores.",
    },
    ...memoryParams("agent"),
    {
      kind: "param",
      name: "agentUserMessage",
      label: "Input message",
      type: "text",
      optional: true,
      editor: "prompt",
      description: "The user message sent last; empty: the question (on the run's first model call).",
    },
    {
      kind: "param",
      name: "agentMaxIterations",
      label: "Max tool rounds",
      type: "number",
      default: 10,
      integer: true,
      min: 1,
      max: 50,
      additional: true,
      description: "Rounds of tool calls before the node fails, naming this limit.",
    },
    updateStateParam("agentUpdateState"),
  ],
  outputs: [flowOutput],
  capabilities: { agentflow: { role: "step" } },
} as const satisfies NodeDefinitionSpec;
