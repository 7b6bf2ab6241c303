import type { FlowiseMapping } from "../types";
import { textFile } from "./textFile";
import { pdfFile } from "./pdfFile";
import { csvFile } from "./csvFile";
import { jsonFile } from "./jsonFile";
import { docxFile } from "./docxFile";
import { plainText } from "./plainText";
import { cheerioWebScraper } from "./cheerioWebScraper";
import { github } from "./github";
import { recursiveCharacterTextSplitter } from "./recursiveCharacterTextSplitter";
import { characterTextSplitter } from "./characterTextSplitter";
import { codeTextSplitter } from "./codeTextSplitter";
import { markdownTextSplitter } from "./markdownTextSplitter";
import { tokenTextSplitter } from "./tokenTextSplitter";
import { openAIEmbeddings } from "./openAIEmbeddings";
import { azureOpenAIEmbeddings } from "./azureOpenAIEmbeddings";
import { localAIEmbeddings } from "./localAIEmbeddings";
import { mistralAIEmbeddings } from "./mistralAIEmbeddings";
import { ollamaEmbedding } from "./ollamaEmbedding";
import { togetherAIEmbedding } from "./togetherAIEmbedding";
import { retrieverTool } from "./retrieverTool";
import { conversationalRetrievalQAChain } from "./conversationalRetrievalQAChain";
import { bufferMemory } from "./bufferMemory";
import { bufferWindowMemory } from "./bufferWindowMemory";
import { RedisBackedChatMemory } from "./RedisBackedChatMemory";
import { chatAnthropic_LlamaIndex } from "./chatAnthropic_LlamaIndex";
import { chatOpenAI_LlamaIndex } from "./chatOpenAI_LlamaIndex";
import { azureChatOpenAI_LlamaIndex } from "./azureChatOpenAI_LlamaIndex";
import { contextChatEngine } from "./contextChatEngine";
import { openAIEmbedding_LlamaIndex } from "./openAIEmbedding_LlamaIndex";
import { simpleChatEngine } from "./simpleChatEngine";
import { chainTool } from "./chainTool";
import { chatAnthropic } from "./chatAnthropic";
import { chatGoogleGenerativeAI } from "./chatGoogleGenerativeAI";
import { chatOpenAI } from "./chatOpenAI";
import { chatPromptTemplate } from "./chatPromptTemplate";
import { conversationChain } from "./conversationChain";
import { llmChain } from "./llmChain";
import { csvOutputParser } from "./csvOutputParser";
import { structuredOutputParser } from "./structuredOutputParser";
import { advancedStructuredOutputParser } from "./advancedStructuredOutputParser";
import { inputModerationSimple } from "./inputModerationSimple";
import { inputModerationOpenAI } from "./inputModerationOpenAI";
import { customTool } from "./customTool";
import { customFunction } from "./customFunction";
import { openApiChain } from "./openApiChain";
import { sqlDatabaseChain } from "./sqlDatabaseChain";
import { openAPIToolkit } from "./openAPIToolkit";
import { customMCP } from "./customMCP";
import { promptTemplate } from "./promptTemplate";
import { toolAgent } from "./toolAgent";
import { conversationalAgent } from "./conversationalAgent";
import { reactAgentChat } from "./reactAgentChat";
import { csvAgent } from "./csvAgent";
import { calculator } from "./calculator";
import { braveSearchAPI } from "./braveSearchAPI";
import { googleCustomSearch } from "./googleCustomSearch";
import { searXNG } from "./searXNG";
import { serpAPI } from "./serpAPI";
import { serper } from "./serper";
import { tavilyAPI } from "./tavilyAPI";
import { webBrowser } from "./webBrowser";
import { chatOllama } from "./chatOllama";
import { azureChatOpenAI } from "./azureChatOpenAI";
import { chatDeepseek } from "./chatDeepseek";
import { chatLocalAI } from "./chatLocalAI";
import { chatMistralAI } from "./chatMistralAI";
import { chatOpenRouter } from "./chatOpenRouter";
import { chatTogetherAI } from "./chatTogetherAI";
import { groqChat } from "./groqChat";
import { huggingFaceInference_LLMs } from "./huggingFaceInference_LLMs";
import { replicate } from "./replicate";
import { chatOpenAICustom } from "./chatOpenAICustom";
import { currentDateTime } from "./currentDateTime";
import { memoryVectorStore } from "./memoryVectorStore";
import { documentStoreVS } from "./documentStoreVS";
import { documentStore } from "./documentStore";
import { faiss } from "./faiss";
import { pinecone } from "./pinecone";
import { qdrant } from "./qdrant";
import { chroma } from "./chroma";
import { elasticsearch } from "./elasticsearch";
import { pineconeLlamaIndex } from "./pineconeLlamaIndex";
import { queryEngine } from "./queryEngine";
import { queryEngineToolLlamaIndex } from "./queryEngineToolLlamaIndex";
import { subQuestionQueryEngine } from "./subQuestionQueryEngine";
import {
  compactrefineLlamaIndex,
  refineLlamaIndex,
  simpleResponseBuilderLlamaIndex,
  treeSummarizeLlamaIndex,
} from "./responseSynthesizers";
import { requestsGet } from "./requestsGet";
import { requestsPost } from "./requestsPost";
import { startAgentflow } from "./startAgentflow";
import { llmAgentflow } from "./llmAgentflow";
import { conditionAgentflow } from "./conditionAgentflow";
import { conditionAgentAgentflow } from "./conditionAgentAgentflow";
import { loopAgentflow } from "./loopAgentflow";
import { humanInputAgentflow } from "./humanInputAgentflow";
import { directReplyAgentflow } from "./directReplyAgentflow";
import { stickyNoteAgentflow } from "./stickyNoteAgentflow";
import { agentAgentflow } from "./agentAgentflow";
import { toolAgentflow } from "./toolAgentflow";
import { retrieverAgentflow } from "./retrieverAgentflow";
import { httpAgentflow } from "./httpAgentflow";
import { iterationAgentflow } from "./iterationAgentflow";
import { customFunctionAgentflow } from "./customFunctionAgentflow";
import { executeFlowAgentflow } from "./executeFlowAgentflow";
import { awsChatBedrock } from "./awsChatBedrock";
import { googleGenerativeAiEmbeddings } from "./googleGenerativeAiEmbeddings";

/**
 * Every Flowise node type we import, one module each (how to add one: ../types.ts). A Flowise
 * type not listed here is refused by name (400 import_unmapped), never saved half-imported.
 */
export const flowiseMappings: readonly FlowiseMapping[] = [
  chatOpenAI,
  chatOpenAICustom,
  chatAnthropic,
  chatGoogleGenerativeAI,
  chatOllama,
  azureChatOpenAI,
  awsChatBedrock,
  chatMistralAI,
  groqChat,
  chatDeepseek,
  chatOpenRouter,
  chatTogetherAI,
  chatLocalAI,
  replicate,
  huggingFaceInference_LLMs,
  promptTemplate,
  chatPromptTemplate,
  llmChain,
  csvOutputParser,
  structuredOutputParser,
  advancedStructuredOutputParser,
  inputModerationSimple,
  inputModerationOpenAI,
  customTool,
  customFunction,
  conversationChain,
  openApiChain,
  sqlDatabaseChain,
  bufferMemory,
  bufferWindowMemory,
  RedisBackedChatMemory,
  chainTool,
  calculator,
  currentDateTime,
  requestsGet,
  requestsPost,
  serpAPI,
  serper,
  googleCustomSearch,
  tavilyAPI,
  braveSearchAPI,
  searXNG,
  webBrowser,
  openAPIToolkit,
  customMCP,
  toolAgent,
  conversationalAgent,
  reactAgentChat,
  csvAgent,
  // Documents: loaders, splitter, embeddings, retrieval.
  textFile,
  pdfFile,
  csvFile,
  jsonFile,
  docxFile,
  plainText,
  cheerioWebScraper,
  github,
  documentStore,
  recursiveCharacterTextSplitter,
  characterTextSplitter,
  markdownTextSplitter,
  codeTextSplitter,
  tokenTextSplitter,
  openAIEmbeddings,
  azureOpenAIEmbeddings,
  mistralAIEmbeddings,
  googleGenerativeAiEmbeddings,
  togetherAIEmbedding,
  ollamaEmbedding,
  localAIEmbeddings,
  memoryVectorStore,
  documentStoreVS,
  faiss,
  pinecone,
  qdrant,
  chroma,
  elasticsearch,
  retrieverTool,
  conversationalRetrievalQAChain,
  // LlamaIndex nodes, onto their LangChain equivalents (each import says so).
  chatOpenAI_LlamaIndex,
  azureChatOpenAI_LlamaIndex,
  chatAnthropic_LlamaIndex,
  openAIEmbedding_LlamaIndex,
  pineconeLlamaIndex,
  contextChatEngine,
  simpleChatEngine,
  // LlamaIndex query engines and response synthesizers, onto our own (not LangChain) engines.
  queryEngine,
  subQuestionQueryEngine,
  queryEngineToolLlamaIndex,
  compactrefineLlamaIndex,
  refineLlamaIndex,
  treeSummarizeLlamaIndex,
  simpleResponseBuilderLlamaIndex,
  // Agentflow V2 steps (their embedded models and tools map through the mappings above).
  startAgentflow,
  llmAgentflow,
  conditionAgentflow,
  conditionAgentAgentflow,
  loopAgentflow,
  humanInputAgentflow,
  directReplyAgentflow,
  stickyNoteAgentflow,
  agentAgentflow,
  toolAgentflow,
  retrieverAgentflow,
  httpAgentflow,
  iterationAgentflow,
  customFunctionAgentflow,
  executeFlowAgentflow,
];
