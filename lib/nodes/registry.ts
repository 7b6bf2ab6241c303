import { bufferMemoryDefinition } from "./buffer-memory/definition";
import { chainToolDefinition } from "./chain-tool/definition";
import { chatAnthropicDefinition } from "./chat-anthropic/definition";
import { chatOpenAICompatibleDefinition } from "./chat-openai-compatible/definition";
import { chatPromptTemplateDefinition } from "./chat-prompt-template/definition";
import { conversationChainDefinition } from "./conversation-chain/definition";
import { llmChainDefinition } from "./llm-chain/definition";
import { openApiChainDefinition } from "./openapi-chain/definition";
import { promptTemplateDefinition } from "./prompt-template/definition";
import { toolAgentDefinition } from "./tool-agent/definition";
import { textFileLoaderDefinition } from "./text-file-loader/definition";
import { pdfLoaderDefinition } from "./pdf-loader/definition";
import { csvLoaderDefinition } from "./csv-loader/definition";
import { jsonLoaderDefinition } from "./json-loader/definition";
import { docxLoaderDefinition } from "./docx-loader/definition";
import { plainTextLoaderDefinition } from "./plain-text-loader/definition";
import { recursiveTextSplitterDefinition } from "./recursive-text-splitter/definition";
import { openAIEmbeddingsDefinition } from "./openai-embeddings/definition";
import { pgvectorStoreDefinition } from "./pgvector-store/definition";
import { keywordStoreDefinition } from "./keyword-store/definition";
import { retrieverToolDefinition } from "./retriever-tool/definition";
import { conversationalRetrievalQAChainDefinition } from "./conversational-retrieval-qa-chain/definition";
import type { NodeDefinition } from "./types";

/**
 * Every node type, as serialisable data (safe to import in the browser; served by GET /api/v1/nodes).
 * Runtimes live in ./runtimes (server-only).
 */
export const nodeDefinitions: readonly NodeDefinition[] = [
  chatOpenAICompatibleDefinition,
  chatAnthropicDefinition,
  promptTemplateDefinition,
  chatPromptTemplateDefinition,
  llmChainDefinition,
  conversationChainDefinition,
  openApiChainDefinition,
  bufferMemoryDefinition,
  chainToolDefinition,
  toolAgentDefinition,
  // Documents: loaders, splitter, embeddings, stores, retrieval.
  textFileLoaderDefinition,
  pdfLoaderDefinition,
  csvLoaderDefinition,
  jsonLoaderDefinition,
  docxLoaderDefinition,
  plainTextLoaderDefinition,
  recursiveTextSplitterDefinition,
  openAIEmbeddingsDefinition,
  pgvectorStoreDefinition,
  keywordStoreDefinition,
  retrieverToolDefinition,
  conversationalRetrievalQAChainDefinition,
];

const byName = new Map(nodeDefinitions.map((d) => [d.name, d]));

/** The definition of a node type by its stable name, or undefined. */
export function getDefinition(name: string): NodeDefinition | undefined {
  return byName.get(name);
}
