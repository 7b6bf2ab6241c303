import { buildBufferMemory } from "./buffer-memory/runtime";
import { buildChainTool } from "./chain-tool/runtime";
import { buildChatAnthropic } from "./chat-anthropic/runtime";
import { buildChatOpenAICompatible } from "./chat-openai-compatible/runtime";
import { buildChatPromptTemplate } from "./chat-prompt-template/runtime";
import { buildConversationChain } from "./conversation-chain/runtime";
import { buildLlmChain } from "./llm-chain/runtime";
import { buildOpenApiChain } from "./openapi-chain/runtime";
import { buildPromptTemplate } from "./prompt-template/runtime";
import { buildTextFileLoader } from "./text-file-loader/runtime";
import { buildPdfLoader } from "./pdf-loader/runtime";
import { buildCsvLoader } from "./csv-loader/runtime";
import { buildJsonLoader } from "./json-loader/runtime";
import { buildDocxLoader } from "./docx-loader/runtime";
import { buildPlainTextLoader } from "./plain-text-loader/runtime";
import { buildRecursiveTextSplitter } from "./recursive-text-splitter/runtime";
import { buildOpenAIEmbeddings } from "./openai-embeddings/runtime";
import { buildPgvectorStore } from "./pgvector-store/runtime";
import { buildKeywordStore } from "./keyword-store/runtime";
import { buildRetrieverTool } from "./retriever-tool/runtime";
import { buildConversationalRetrievalQAChain } from "./conversational-retrieval-qa-chain/runtime";
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
  textFileLoader: buildTextFileLoader,
  pdfLoader: buildPdfLoader,
  csvLoader: buildCsvLoader,
  jsonLoader: buildJsonLoader,
  docxLoader: buildDocxLoader,
  plainTextLoader: buildPlainTextLoader,
  recursiveTextSplitter: buildRecursiveTextSplitter,
  openAIEmbeddings: buildOpenAIEmbeddings,
  pgvectorStore: buildPgvectorStore,
  keywordStore: buildKeywordStore,
  retrieverTool: buildRetrieverTool,
  conversationalRetrievalQAChain: buildConversationalRetrievalQAChain,
};

/** The runtime of a node type, or undefined. */
export function getRuntime(name: string): NodeRuntime | undefined {
  return Object.hasOwn(nodeRuntimes, name) ? nodeRuntimes[name] : undefined;
}
