import { T, type NodeDefinitionSpec } from "@/common/nodes/types";
import { flowInputAnchor, flowOutput, updateStateParam } from "../shared/agentflow";

/** Flowise's LLM (llmAgentflow): role messages, memory, structured output, flow-state updates. */
export const llmAgentflowDefinition = {
  name: "llmAgentflow",
  version: 1,
  label: "LLM",
  category: "Agent Flows",
  description:
    "Asks a chat model: role messages, the conversation as memory (all or the last N messages), optionally a structured answer with typed keys; can write to the flow state.",
  inputs: [
    flowInputAnchor,
    { kind: "anchor", name: "model", label: "Chat model", accepts: [T.chatModel] },
    {
      kind: "param",
      name: "llmMessages",
      label: "Messages",
      type: "json",
      optional: true,
      description:
        'A list of { "role": "system" | "assistant" | "developer" | "user", "content" }; content may use variables.',
    },
    { kind: "param", name: "llmEnableMemory", label: "Memory", type: "boolean", default: true },
    {
      kind: "param",
      name: "llmMemoryType",
      label: "Memory type",
      type: "options",
      default: "allMessages",
      options: [
        { label: "All messages", name: "allMessages" },
        { label: "Last N messages", name: "windowSize" },
      ],
    },
    {
      kind: "param",
      name: "llmMemoryWindowSize",
      label: "Last N messages",
      type: "number",
      default: 20,
      integer: true,
      min: 1,
    },
    {
      kind: "param",
      name: "llmUserMessage",
      label: "Input message",
      type: "text",
      optional: true,
      editor: "prompt",
      description: "The user message sent last; empty: the question (on the run's first model call).",
    },
    {
      kind: "param",
      name: "llmStructuredOutput",
      label: "Structured output",
      type: "json",
      optional: true,
      additional: true,
      description:
        'A list of { "key", "type": "string" | "stringArray" | "number" | "boolean" | "enum" | "jsonArray", "enumValues": "a, b", "jsonSchema", "description" }: the answer becomes a JSON object with these keys ({{nodeId.key}}).',
    },
    updateStateParam("llmUpdateState"),
  ],
  outputs: [flowOutput],
  capabilities: { agentflow: { role: "step" } },
} as const satisfies NodeDefinitionSpec;
