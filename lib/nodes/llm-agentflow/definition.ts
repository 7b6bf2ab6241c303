import { T, type NodeDefinitionSpec } from "@/common/nodes/types";
import { flowInputAnchor, flowOutput, updateStateParam } from "../shared/agentflow";
import { memoryParams } from "../shared/memory-summary";

/** Flowise's LLM (llmAgentflow): role messages, memory, structured output, flow-state updates. */
export const llmAgentflowDefinition = {
  name: "llmAgentflow",
  version: 1,
  label: "LLM",
  category: "Agent Flows",
  description:
    "Asks a chat model: role messages, the conversation as memory (all, the last N messages, a summary, or a summary plus the last messages within a token limit), optionally a structured answer with typed keys; can write to the flow state.",
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
    ...memoryParams("llm"),
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
