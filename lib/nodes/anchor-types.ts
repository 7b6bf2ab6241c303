import type { BaseChain } from "@langchain/classic/chains";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BasePromptTemplate } from "@langchain/core/prompts";
import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { TextSplitter } from "@langchain/textsplitters";
import type { DocumentSource } from "../vector/types";
import type { ChatHistoryMemory } from "./shared/memory";
import type { FlowModeration } from "./shared/moderation";
import type { FlowOutputParser } from "./shared/output-parser";
import type { QueryEngine, QueryEngineToolSpec } from "./shared/query-engine";
import type { ResponseSynthesizer } from "./shared/response-synthesis";

/**
 * The contract behind each connection type name (T in ./types.ts, DT in lib/vector/node-types.ts):
 * a node declaring an output of that type builds an object of this TypeScript type, so an anchor
 * accepting it receives one (the graph validation refuses any other connection). Types only.
 */
export interface AnchorTypes {
  BaseChatModel: BaseChatModel;
  BasePromptTemplate: BasePromptTemplate;
  BaseChain: BaseChain;
  /** The chain itself: the node using its prediction runs it with the turn's question. */
  ChainPrediction: BaseChain;
  BaseLLMOutputParser: FlowOutputParser;
  Moderation: FlowModeration;
  BaseMemory: ChatHistoryMemory;
  Tool: StructuredToolInterface;
  /** Several tools from one node (an OpenAPI toolkit, an MCP server's tools); agents flatten them (shared/tools.ts). */
  Toolkit: StructuredToolInterface[];
  Document: DocumentSource;
  TextSplitter: TextSplitter;
  Embeddings: EmbeddingsInterface;
  BaseRetriever: BaseRetrieverInterface;
  /** How a query engine turns chunks into an answer (shared/response-synthesis.ts). */
  ResponseSynthesizer: ResponseSynthesizer;
  BaseQueryEngine: QueryEngine;
  QueryEngineTool: QueryEngineToolSpec;
}

/** The TypeScript type an anchor accepting the given type names receives (unknown for other names). */
export type AnchorObject<Accepts> = Accepts extends keyof AnchorTypes ? AnchorTypes[Accepts] : unknown;
