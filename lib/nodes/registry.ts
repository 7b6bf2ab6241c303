import { bufferMemory } from "./buffer-memory";
import { calculator } from "./calculator";
import { braveSearch } from "./brave-search";
import { googleCustomSearch } from "./google-custom-search";
import { searxngSearch } from "./searxng-search";
import { serpAPI } from "./serp-api";
import { serper } from "./serper-search";
import { tavilySearch } from "./tavily-search";
import { webBrowser } from "./web-browser";
import { replicateImageTool } from "./replicate-image-tool";
import { chainTool } from "./chain-tool";
import { chatAnthropic } from "./chat-anthropic";
import { chatGoogleGenerativeAI } from "./chat-google-genai";
import { chatOllama } from "./chat-ollama";
import { azureChatOpenAI } from "./azure-chat-openai";
import { awsChatBedrock } from "./chat-bedrock";
import { chatDeepseek } from "./chat-deepseek";
import { chatGroq } from "./chat-groq";
import { chatMistralAI } from "./chat-mistral";
import { chatOpenRouter } from "./chat-openrouter";
import { chatTogetherAI } from "./chat-together";
import { huggingFaceInference } from "./hugging-face-inference";
import { replicateLLM } from "./replicate-llm";
import { chatOpenAICompatible } from "./chat-openai-compatible";
import { chatPromptTemplate } from "./chat-prompt-template";
import { conversationChain } from "./conversation-chain";
import { conversationalRetrievalQAChain } from "./conversational-retrieval-qa-chain";
import { csvLoader } from "./csv-loader";
import { currentDateTime } from "./current-date-time";
import type { NodeModule } from "./define";
import { docxLoader } from "./docx-loader";
import { jsonLoader } from "./json-loader";
import { keywordStore } from "./keyword-store";
import { documentStoreRetriever } from "./document-store-retriever";
import { documentStoreLoader } from "./document-store-loader";
import { compactRefineSynthesizer } from "./compact-refine-synthesizer";
import { refineSynthesizer } from "./refine-synthesizer";
import { treeSummarizeSynthesizer } from "./tree-summarize-synthesizer";
import { simpleResponseBuilder } from "./simple-response-builder";
import { queryEngine } from "./query-engine";
import { queryEngineTool } from "./query-engine-tool";
import { subQuestionQueryEngine } from "./sub-question-query-engine";
import { llmChain } from "./llm-chain";
import { csvOutputParser } from "./csv-output-parser";
import { structuredOutputParser } from "./structured-output-parser";
import { advancedStructuredOutputParser } from "./advanced-structured-output-parser";
import { inputModerationSimple } from "./input-moderation-simple";
import { inputModerationOpenAI } from "./input-moderation-openai";
import { customTool } from "./custom-tool";
import { customFunction } from "./custom-function";
import { memoryVectorStore } from "./memory-vector-store";
import { openAIEmbeddings } from "./openai-embeddings";
import { azureOpenAIEmbeddings } from "./azure-openai-embeddings";
import { mistralAIEmbeddings } from "./mistral-embeddings";
import { ollamaEmbeddings } from "./ollama-embeddings";
import { googleGenerativeAiEmbeddings } from "./google-genai-embeddings";
import { togetherAIEmbeddings } from "./together-embeddings";
import { openApiChain } from "./openapi-chain";
import { openApiToolkit } from "./openapi-toolkit";
import { mcpTools } from "./mcp-tools";
import { sqlDatabaseChain } from "./sql-database-chain";
import { pdfLoader } from "./pdf-loader";
import { pgvectorStore } from "./pgvector-store";
import { pineconeStore } from "./pinecone-store";
import { qdrantStore } from "./qdrant-store";
import { chromaStore } from "./chroma-store";
import { elasticsearchStore } from "./elasticsearch-store";
import { plainTextLoader } from "./plain-text-loader";
import { webPageLoader } from "./web-page-loader";
import { githubLoader } from "./github-loader";
import { promptTemplate } from "./prompt-template";
import { recursiveTextSplitter } from "./recursive-text-splitter";
import { characterTextSplitter } from "./character-text-splitter";
import { codeTextSplitter } from "./code-text-splitter";
import { markdownTextSplitter } from "./markdown-text-splitter";
import { tokenTextSplitter } from "./token-text-splitter";
import { requestsGet } from "./requests-get";
import { requestsPost } from "./requests-post";
import { retrieverTool } from "./retriever-tool";
import { textFileLoader } from "./text-file-loader";
import { toolAgent } from "./tool-agent";
import { conversationalAgent } from "./conversational-agent";
import { reactAgentChat } from "./react-agent-chat";
import { csvAgent } from "./csv-agent";
import { startAgentflow } from "./start-agentflow";
import { llmAgentflow } from "./llm-agentflow";
import { conditionAgentflow } from "./condition-agentflow";
import { conditionAgentAgentflow } from "./condition-agent-agentflow";
import { loopAgentflow } from "./loop-agentflow";
import { humanInputAgentflow } from "./human-input-agentflow";
import { directReplyAgentflow } from "./direct-reply-agentflow";
import { stickyNoteAgentflow } from "./sticky-note-agentflow";
import { agentAgentflow } from "./agent-agentflow";
import { toolAgentflow } from "./tool-agentflow";
import { retrieverAgentflow } from "./retriever-agentflow";
import { httpAgentflow } from "./http-agentflow";
import { iterationAgentflow } from "./iteration-agentflow";
import { customFunctionAgentflow } from "./custom-function-agentflow";
import { executeFlowAgentflow } from "./execute-flow-agentflow";
import type { NodeDefinition } from "@/common/nodes/types";

/**
 * Every node type, once (server-only: the runtimes pull in LangChain). The order is the palette's.
 * Adding a node: one folder exporting `defineNode({ definition, runtime })`, and one line here.
 * The browser never imports this module: the studio gets the definitions from the server
 * (the editor page's props, GET /api/v1/nodes).
 */
export const nodes: readonly NodeModule[] = [
  chatOpenAICompatible,
  chatAnthropic,
  chatGoogleGenerativeAI,
  chatOllama,
  azureChatOpenAI,
  chatMistralAI,
  chatGroq,
  chatDeepseek,
  chatOpenRouter,
  chatTogetherAI,
  awsChatBedrock,
  replicateLLM,
  huggingFaceInference,
  promptTemplate,
  chatPromptTemplate,
  llmChain,
  csvOutputParser,
  structuredOutputParser,
  advancedStructuredOutputParser,
  inputModerationSimple,
  inputModerationOpenAI,
  conversationChain,
  openApiChain,
  sqlDatabaseChain,
  bufferMemory,
  chainTool,
  calculator,
  currentDateTime,
  customTool,
  customFunction,
  requestsGet,
  requestsPost,
  serpAPI,
  serper,
  googleCustomSearch,
  tavilySearch,
  braveSearch,
  searxngSearch,
  webBrowser,
  replicateImageTool,
  openApiToolkit,
  mcpTools,
  toolAgent,
  conversationalAgent,
  reactAgentChat,
  csvAgent,
  // Documents: loaders, splitter, embeddings, stores, retrieval.
  textFileLoader,
  pdfLoader,
  csvLoader,
  jsonLoader,
  docxLoader,
  plainTextLoader,
  webPageLoader,
  githubLoader,
  documentStoreLoader,
  recursiveTextSplitter,
  characterTextSplitter,
  markdownTextSplitter,
  codeTextSplitter,
  tokenTextSplitter,
  openAIEmbeddings,
  azureOpenAIEmbeddings,
  mistralAIEmbeddings,
  togetherAIEmbeddings,
  ollamaEmbeddings,
  googleGenerativeAiEmbeddings,
  pgvectorStore,
  pineconeStore,
  qdrantStore,
  chromaStore,
  elasticsearchStore,
  keywordStore,
  documentStoreRetriever,
  memoryVectorStore,
  retrieverTool,
  conversationalRetrievalQAChain,
  // LlamaIndex's query engines and response synthesizers, on our retrievers.
  queryEngine,
  subQuestionQueryEngine,
  queryEngineTool,
  compactRefineSynthesizer,
  refineSynthesizer,
  treeSummarizeSynthesizer,
  simpleResponseBuilder,
  // Agentflow steps (lib/agentflow runs them; chat models above feed them).
  startAgentflow,
  llmAgentflow,
  agentAgentflow,
  conditionAgentflow,
  conditionAgentAgentflow,
  loopAgentflow,
  humanInputAgentflow,
  directReplyAgentflow,
  toolAgentflow,
  retrieverAgentflow,
  httpAgentflow,
  iterationAgentflow,
  customFunctionAgentflow,
  executeFlowAgentflow,
  stickyNoteAgentflow,
];

/** Every definition, as serialisable data (served by GET /api/v1/nodes and to the editor page). */
export const nodeDefinitions: readonly NodeDefinition[] = nodes.map((n) => n.definition);

/** The definitions a chatflow's palette offers: every node but agentflow steps. */
export const chatflowNodeDefinitions: readonly NodeDefinition[] = nodeDefinitions.filter(
  (d) => !d.capabilities?.agentflow,
);

const byName = new Map(nodes.map((n) => [n.definition.name, n]));

/** The node (definition, runtime, migration) of a type by its stable name, or undefined. */
export function getNode(name: string): NodeModule | undefined {
  return byName.get(name);
}

/** The definition of a node type by its stable name, or undefined. */
export function getDefinition(name: string): NodeDefinition | undefined {
  return byName.get(name)?.definition;
}
