import type { ResolvedCredential } from "../security/credential-hosts";
import type { GuardedRequest } from "../security/outbound";
import type { ModelFetchOptions } from "../security/outbound-policy";
import type { DocumentStoreAccess, StoreDocument } from "../vector/types";
import type { SourceDocument, ToolStart, UsedTool } from "@/common/schemas/prediction-stream";
import type { BuiltAgentflow } from "../agentflow/build";
import type { RunUsage } from "../usage/tally";

/**
 * Types of the flow engine's boundary: what the prediction service gives (BuildContext, RunInput) and
 * gets back (BuiltFlow, RunResult). Everything here is plain data or plain functions, so a run stays
 * expressible as serialisable data (chatflow id, version, body, session) for a queue worker.
 */

/** One stored or request-supplied message of the conversation, oldest first. */
export interface HistoryMessage {
  role: "userMessage" | "apiMessage";
  content: string;
}

export interface ImageUpload {
  mime: string;
  base64: string;
}

export interface FlowLogger {
  debug?(msg: string, data?: Record<string, unknown>): void;
  info?(msg: string, data?: Record<string, unknown>): void;
  warn?(msg: string, data?: Record<string, unknown>): void;
  error?(msg: string, data?: Record<string, unknown>): void;
}

/** Everything a node runtime may use at build time; no process.env, no database. */
export interface BuildContext {
  chatflowId: string;
  /** A credential's name, kind and decrypted fields by id; throws (an AppError) when unknown. */
  resolveCredential(id: string): Promise<ResolvedCredential>;
  env: {
    OPENAI_API_KEY?: string;
    OPENAI_BASE_URL?: string;
    OPENAI_MODEL: string;
    OPENAI_EMBEDDING_MODEL?: string;
    /** Deadline of one model call; the model fetch enforces it (504). */
    MODEL_TIMEOUT_MS?: number;
  };
  /** The guarded outbound fetch (loaders, URLs): private addresses only where the operator allows. */
  fetch: typeof fetch;
  /**
   * A guarded fetch pinned to one server (an OpenAPI spec's server, a spec URL): only that host (or
   * `allowedHosts`) and only the given methods. Private addresses still need the operator's
   * allowance: naming a host here never grants it. Falls back to `fetch` when absent.
   */
  fetchFor?(opts: { baseUrl: string; methods?: string[] }): typeof fetch;
  /** `fetchFor`'s guard answering node's own response (no Response objects): the OpenAPI chain's calls. */
  requestFor?(opts: { baseUrl: string; methods?: string[] }): GuardedRequest;
  /**
   * The fetch a model client sends through (guarded, streamed, MODEL_TIMEOUT_MS, failures as
   * AppErrors naming `requester` and the host); `allowedHosts` pins a credential to its hosts;
   * `authHint` explains a refused key.
   * Absent in unit tests (the SDK's own fetch is used).
   */
  modelFetch?(opts: ModelFetchOptions): typeof fetch;
  /** The same guard and failures answering node's own response (no Response objects): the chat model client's. */
  modelRequest?(opts: ModelFetchOptions): GuardedRequest;
  logger?: FlowLogger;
  /** The global variables a run's code sees as `$vars` (read per call; absent in unit tests: none). */
  vars?(): Promise<Record<string, string>>;
  /** Chunk storage for vector and keyword store nodes (absent where no database is wired, e.g. unit tests). */
  documents?: DocumentStoreAccess;
  /**
   * A document store's retriever by id, if the flow's owner may read it (404 otherwise): the Document
   * Store Retriever node's. Absent where no database is wired.
   */
  documentStoreRetriever?(storeId: string): Promise<unknown>;
  /**
   * The chunks a document store holds (written by its upsert), oldest first, if the flow's owner may
   * read it (404 otherwise): the Document Store loader's. Absent where no database is wired.
   */
  documentStoreChunks?(storeId: string): Promise<{ name: string; chunks: StoreDocument[] }>;
}

export interface RunInput {
  question: string;
  /** Stored session messages + request history, oldest first; a memory node windows them. */
  history: HistoryMessage[];
  images?: ImageUpload[];
  signal?: AbortSignal;
  /** Called with each streamed token of the answer. */
  onToken?(token: string): void;
  /** Called when a tool call of the answer begins (the calls usedTools reports once they end). */
  onToolStart?(start: ToolStart): void;
}

/** A tool call and a retrieved document, as the prediction answer carries them (common/schemas/prediction-stream.ts). */
export type { SourceDocument, ToolStart, UsedTool };

export interface RunResult {
  text: string;
  usedTools: UsedTool[];
  sourceDocuments?: SourceDocument[];
  /** Tokens of the run's model calls (reported, or estimated and marked so); absent when it called none. */
  usage?: RunUsage;
}

export interface BuiltFlow {
  chatflowId: string;
  endingNodeId: string;
  /** The label of the memory node's definition (e.g. "Buffer Memory") when the flow has one. */
  memoryType?: string;
  /**
   * How many of the latest stored messages its memory nodes can show at most (their largest
   * window); unset: no window, all of the history the service reads.
   */
  historyLimit?: number;
  /** True when a chat model of the flow accepts image uploads. */
  allowsImages: boolean;
  /** Reads the session's history without a memory node (an agentflow's LLM steps have their own memory). */
  readsHistory?: boolean;
  /** An agentflow: it runs through its engine with an execution (lib/services/agentflow-runs.ts), not `run`. */
  agentflow?: BuiltAgentflow;
  run(input: RunInput): Promise<RunResult>;
}
