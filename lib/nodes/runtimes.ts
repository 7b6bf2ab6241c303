import { buildBufferMemory } from "./buffer-memory/runtime";
import { buildChainTool } from "./chain-tool/runtime";
import { buildChatAnthropic } from "./chat-anthropic/runtime";
import { buildChatOpenAICompatible } from "./chat-openai-compatible/runtime";
import { buildChatPromptTemplate } from "./chat-prompt-template/runtime";
import { buildConversationChain } from "./conversation-chain/runtime";
import { buildLlmChain } from "./llm-chain/runtime";
import { buildOpenApiChain } from "./openapi-chain/runtime";
import { buildPromptTemplate } from "./prompt-template/runtime";
import type { NodeRuntime } from "./runtime-types";
import { buildToolAgent } from "./tool-agent/runtime";

/** Server-only: node name → function building its LangChain object. Keep in step with registry.ts. */
export const nodeRuntimes: Readonly<Record<string, NodeRuntime>> = {
  chatOpenAICompatible: buildChatOpenAICompatible,
  chatAnthropic: buildChatAnthropic,
  promptTemplate: buildPromptTemplate,
  chatPromptTemplate: buildChatPromptTemplate,
  llmChain: buildLlmChain,
  conversationChain: buildConversationChain,
  openApiChain: buildOpenApiChain,
  bufferMemory: buildBufferMemory,
  chainTool: buildChainTool,
  toolAgent: buildToolAgent,
};

/** The runtime of a node type, or undefined. */
export function getRuntime(name: string): NodeRuntime | undefined {
  return Object.hasOwn(nodeRuntimes, name) ? nodeRuntimes[name] : undefined;
}
