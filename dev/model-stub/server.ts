/**
 * A scripted OpenAI-compatible HTTP server on 127.0.0.1 for tests and demos without a real model:
 * chat completions (JSON and SSE, tool calls and legacy function calls), embeddings, audio
 * transcriptions and the model list, plus Anthropic's Messages API (`/v1/messages`) and Google's
 * Generative Language API (`/v1beta/models/{model}:generateContent`, `:streamGenerateContent`) and
 * Amazon Bedrock's Converse API (`/model/{modelId}/converse`, `/converse-stream`, SigV4-signed). What
 * it answers is decided by a swappable "brain".
 * Importable by vitest and Playwright global setup; `scripts/model-stub.ts` runs it standalone.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  type AwsKeyPair,
  bedrockError,
  bedrockPath,
  bedrockReply,
  checkSigV4,
  readBedrockMessages,
  readBedrockTools,
} from "./bedrock";
import { anthropicEvents, anthropicMessage, readAnthropicMessages, readAnthropicTools } from "./anthropic";
import { type Brain, type BrainReply, type ChatMessage, demoBrain, scriptedBrain } from "./brain";
import { DEFAULT_EMBEDDING_DIMENSIONS, embeddingsResponse } from "./embeddings";
import {
  geminiChunks,
  geminiEmbeddings,
  geminiError,
  geminiPath,
  geminiResponse,
  readGeminiMessages,
  readGeminiTools,
} from "./gemini";
import { type Reply, writeReply } from "./reply";
import { completionChunks, completionJson, readTools } from "./wire";

export { demoBrain, scriptedBrain } from "./brain";
export type { Brain, BrainReply, BrainRequest, ChatMessage, Delivery, ToolDefinition } from "./brain";

export const DEFAULT_TRANSCRIPT = "find me a laptop under 1500 in Germany";
export const STUB_MODELS = ["stub-model", "gpt-4o-mini", "stub-embedding", "text-embedding-3-small", "whisper-1"];
const MAX_BODY_BYTES = 25 * 1024 * 1024;

export interface ModelStubOptions {
  brain?: Brain;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  transcript?: string;
  embeddingDimensions?: number;
  /**
   * When set, requests must send `Authorization: Bearer <apiKey>` (Anthropic: `x-api-key`, Gemini:
   * `x-goog-api-key` or `?key=`), else 401.
   */
  apiKey?: string;
  /**
   * Milliseconds every chat, Messages API and embeddings answer waits before its first byte (a
   * timer: no CPU spent), like a network-bound real model. 0 (default) answers at once.
   */
  latencyMs?: number;
  /**
   * The AWS key pair Bedrock's Converse calls (`/model/{id}/converse[-stream]`) must be signed with
   * (SigV4, checked); without it those calls are refused 403.
   */
  aws?: AwsKeyPair;
}

/** One API call the stub received (admin calls are not recorded). Multipart bodies are summarised. */
export interface RecordedModelRequest {
  method: string;
  path: string;
  body: unknown;
  /** The Authorization header it came with (tests check which credential a flow used). */
  authorization?: string;
  /** The x-api-key header (Anthropic's) or x-goog-api-key (Gemini's), when sent. */
  apiKey?: string;
  /**
   * How the answer went: "pending" while it is being made or written (or hangs), "sent" once
   * written in full, "cut" when the client closed the connection first (its run was aborted).
   */
  answer: "pending" | "sent" | "cut";
}

export interface ModelStub {
  /** Base URL ending in /v1, ready for `baseURL` / `configuration.baseURL`. */
  url: string;
  /** Base URL without /v1, for Anthropic's SDK (it appends /v1/messages) and Gemini's (it appends /v1beta/…). */
  origin: string;
  port: number;
  requests: RecordedModelRequest[];
  setBrain(brain: Brain): void;
  setTranscript(text: string): void;
  /** Changes `latencyMs` for the calls that arrive from now on. */
  setLatency(ms: number): void;
  close(): Promise<void>;
}

/** One request being answered: aborted when its client goes away; its record, once made. */
interface Exchange {
  signal: AbortSignal;
  record?: RecordedModelRequest;
}

class StubHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = "invalid_request_error",
  ) {
    super(message);
  }
}

function openAiError(status: number, message: string, type: string): Reply {
  return { status, json: { error: { message, type, param: null, code: null } } };
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req) {
    size += (part as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new StubHttpError(413, "Request body too large");
    parts.push(part as Buffer);
  }
  return Buffer.concat(parts);
}

function parseJson(raw: Buffer): Record<string, unknown> {
  try {
    const value = JSON.parse(raw.toString("utf8") || "{}");
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  throw new StubHttpError(400, "Request body must be a JSON object");
}

async function chatCompletion(body: Record<string, unknown>, brain: Brain, signal: AbortSignal): Promise<Reply> {
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    throw new StubHttpError(400, "'messages' must be a non-empty array");
  const messages = body.messages as ChatMessage[];
  const model = typeof body.model === "string" ? body.model : "stub-model";
  const { tools, mode } = readTools(body);
  const reply: BrainReply = await brain({ model, messages, tools, body, signal });
  if ("error" in reply) return openAiError(reply.error.status, reply.error.message, "server_error");
  const { delivery } = reply;
  if (body.stream === true) {
    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    return { sse: completionChunks(reply, mode, model, messages, includeUsage), delivery };
  }
  return { status: 200, json: completionJson(reply, mode, model, messages), delivery };
}

async function transcription(
  req: http.IncomingMessage,
  raw: Buffer,
  transcript: string,
): Promise<{ reply: Reply; record: unknown }> {
  const type = req.headers["content-type"] ?? "";
  if (!type.startsWith("multipart/form-data")) throw new StubHttpError(415, "Expected multipart/form-data");
  const form = await new Request("http://stub/", {
    method: "POST",
    headers: { "content-type": type },
    body: new Uint8Array(raw),
  }).formData();
  const file = form.get("file");
  if (!file || typeof file === "string") throw new StubHttpError(400, "'file' is required");
  const fields = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string"));
  const record = { ...fields, file: { name: file.name, size: file.size, type: file.type } };
  const format = String(form.get("response_format") ?? "json");
  if (format === "text" || format === "srt" || format === "vtt")
    return { reply: { status: 200, text: transcript }, record };
  const json =
    format === "verbose_json"
      ? { task: "transcribe", language: "english", duration: 2.5, text: transcript, segments: [] }
      : { text: transcript };
  return { reply: { status: 200, json }, record };
}

async function anthropicMessages(body: Record<string, unknown>, brain: Brain, signal: AbortSignal): Promise<Reply> {
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    throw new StubHttpError(400, "messages: must be a non-empty array");
  const model = typeof body.model === "string" ? body.model : "stub-model";
  const messages = readAnthropicMessages(body);
  const reply = await brain({ model, messages, tools: readAnthropicTools(body), body, signal });
  if ("error" in reply)
    return {
      status: reply.error.status,
      json: { type: "error", error: { type: "api_error", message: reply.error.message } },
    };
  const { delivery } = reply;
  if (body.stream === true) return { events: anthropicEvents(reply, model, messages), delivery };
  return { status: 200, json: anthropicMessage(reply, model, messages), delivery };
}

async function geminiGenerate(
  body: Record<string, unknown>,
  target: NonNullable<ReturnType<typeof geminiPath>>,
  brain: Brain,
  signal: AbortSignal,
): Promise<Reply> {
  if (!Array.isArray(body.contents) || body.contents.length === 0)
    return geminiError(400, "* GenerateContentRequest.contents: contents is not specified");
  const messages = readGeminiMessages(body);
  const reply = await brain({ model: target.model, messages, tools: readGeminiTools(body), body, signal });
  if ("error" in reply) return geminiError(reply.error.status, reply.error.message);
  const { delivery } = reply;
  if (target.method === "streamGenerateContent")
    return { sse: geminiChunks(reply, target.model, messages), done: false, delivery };
  return { status: 200, json: geminiResponse(reply, target.model, messages), delivery };
}

async function bedrockConverse(
  body: Record<string, unknown>,
  target: NonNullable<ReturnType<typeof bedrockPath>>,
  brain: Brain,
  signal: AbortSignal,
): Promise<Reply> {
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return bedrockError(400, "The model returned the following errors: messages: must not be empty");
  const messages = readBedrockMessages(body);
  const reply = await brain({ model: target.model, messages, tools: readBedrockTools(body), body, signal });
  return bedrockReply(reply, target, messages);
}

function modelList(): Reply {
  const created = 1_700_000_000;
  return {
    status: 200,
    json: {
      object: "list",
      data: STUB_MODELS.map((id) => ({ id, object: "model", created, owned_by: "switchyard-stub" })),
    },
  };
}

interface StubState {
  brain: Brain;
  transcript: string;
  dimensions: number;
  apiKey?: string;
  aws?: AwsKeyPair;
  latencyMs: number;
  requests: RecordedModelRequest[];
}

/** Admin endpoints let e2e tests (other processes) script the stub: reply queue, reset, requests. */
function adminRoute(method: string, path: string, raw: Buffer, state: StubState): Reply | undefined {
  if (method === "POST" && path === "/__admin/script") {
    const body = JSON.parse(raw.toString("utf8") || "[]") as BrainReply[] | { replies: BrainReply[] };
    state.brain = scriptedBrain(Array.isArray(body) ? body : body.replies);
    return { status: 200, json: { ok: true } };
  }
  if (method === "POST" && path === "/__admin/reset") {
    state.brain = demoBrain;
    state.requests.length = 0;
    return { status: 200, json: { ok: true } };
  }
  if (method === "POST" && path === "/__admin/transcript") {
    state.transcript = String((parseJson(raw) as { text?: unknown }).text ?? "");
    return { status: 200, json: { ok: true } };
  }
  if (method === "GET" && path === "/__admin/requests") return { status: 200, json: { requests: state.requests } };
  return undefined;
}

/** Records an API call; a client that already went away has cut its answer. */
function record(state: StubState, exchange: Exchange, call: Omit<RecordedModelRequest, "answer">): void {
  exchange.record = { ...call, answer: exchange.signal.aborted ? "cut" : "pending" };
  state.requests.push(exchange.record);
}

async function route(req: http.IncomingMessage, state: StubState, exchange: Exchange): Promise<Reply> {
  const method = req.method ?? "GET";
  const url = new URL(req.url ?? "/", "http://stub");
  const path = url.pathname.replace(/\/+$/, "");
  const gemini = geminiPath(path);
  // Azure OpenAI: Chat Completions at a deployment's path, the key in an `api-key` header.
  const azure = /^\/openai\/deployments\/[^/]+\/(chat\/completions|embeddings)$/.exec(path)?.[1];
  const raw = await readBody(req);
  const admin = adminRoute(method, path, raw, state);
  if (admin) return admin;
  // The raw path: Bedrock's model ids carry an encoded ":" that the signature covers as sent.
  const bedrock = bedrockPath((req.url ?? "/").split("?")[0]);
  // ListAsyncInvokes: a signed call that runs no model (the credential test's).
  if (method === "GET" && path === "/async-invoke") {
    const signed = state.aws
      ? checkSigV4(req, raw, state.aws)
      : { error: { status: 403, type: "AccessDeniedException", message: "No AWS keys are set up on this stub." } };
    if (signed.error) return bedrockError(signed.error.status, signed.error.message, signed.error.type);
    record(state, exchange, { method, path, body: null, authorization: req.headers.authorization });
    return { status: 200, json: { asyncInvokeSummaries: [] } };
  }
  if (bedrock && method === "POST") {
    const signed = state.aws
      ? checkSigV4(req, raw, state.aws)
      : { error: { status: 403, type: "AccessDeniedException", message: "No AWS keys are set up on this stub." } };
    if (signed.error) return bedrockError(signed.error.status, signed.error.message, signed.error.type);
    const body = parseJson(raw);
    record(state, exchange, { method, path: decodeURIComponent(path), body, authorization: req.headers.authorization });
    if (state.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, state.latencyMs));
    return bedrockConverse(body, bedrock, state.brain, exchange.signal);
  }
  const googKey = req.headers["x-goog-api-key"] ?? url.searchParams.get("key") ?? undefined;
  const xApiKey = [gemini ? googKey : azure ? req.headers["api-key"] : req.headers["x-api-key"]].find(
    (k) => typeof k === "string",
  );
  const keyed =
    path === "/v1/messages" || gemini || azure
      ? xApiKey === state.apiKey
      : req.headers.authorization === `Bearer ${state.apiKey}`;
  if (state.apiKey && !keyed && gemini) return geminiError(401, "API key not valid. Please pass a valid API key.");
  if (state.apiKey && !keyed) {
    return {
      status: 401,
      json: {
        error: {
          message: "Incorrect API key provided",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      },
    };
  }
  if (method === "GET" && path === "/v1/models") return modelList();
  if (method !== "POST") throw new StubHttpError(404, `Unknown endpoint ${method} ${path}`);
  if (path === "/v1/audio/transcriptions") {
    const { reply, record: summary } = await transcription(req, raw, state.transcript);
    record(state, exchange, { method, path, body: summary, authorization: req.headers.authorization });
    return reply;
  }
  const body = parseJson(raw);
  record(state, exchange, {
    method,
    path,
    body,
    authorization: req.headers.authorization,
    ...(xApiKey === undefined ? {} : { apiKey: xApiKey }),
  });
  const modelPaths = ["/v1/chat/completions", "/v1/messages", "/v1/embeddings"];
  if (state.latencyMs > 0 && (modelPaths.includes(path) || gemini))
    await new Promise((resolve) => setTimeout(resolve, state.latencyMs));
  if (path === "/v1/chat/completions" || azure === "chat/completions")
    return chatCompletion(body, state.brain, exchange.signal);
  if (path === "/v1/messages") return anthropicMessages(body, state.brain, exchange.signal);
  if (gemini?.method === "batchEmbedContents") return geminiEmbeddings(body, gemini.model, state.dimensions);
  if (gemini) return geminiGenerate(body, gemini, state.brain, exchange.signal);
  if (path === "/v1/embeddings" || azure === "embeddings")
    return { status: 200, json: embeddingsResponse(body, state.dimensions) };
  throw new StubHttpError(404, `Unknown endpoint ${method} ${path}`);
}

/** Start the stub on 127.0.0.1 (or `host`). Resolves once it listens. */
export async function createModelStub(opts: ModelStubOptions = {}): Promise<ModelStub> {
  const latency = (ms: number) => {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`latencyMs must be a number >= 0, got ${ms}`);
    return ms;
  };
  const state: StubState = {
    brain: opts.brain ?? demoBrain,
    transcript: opts.transcript ?? DEFAULT_TRANSCRIPT,
    dimensions: opts.embeddingDimensions ?? DEFAULT_EMBEDDING_DIMENSIONS,
    apiKey: opts.apiKey,
    aws: opts.aws,
    latencyMs: latency(opts.latencyMs ?? 0),
    requests: [],
  };
  const server = http.createServer((req, res) => {
    const cut = new AbortController();
    const exchange: Exchange = { signal: cut.signal };
    res.on("finish", () => {
      if (exchange.record) exchange.record.answer = "sent";
    });
    res.on("close", () => {
      if (res.writableFinished) return;
      cut.abort();
      if (exchange.record) exchange.record.answer = "cut";
    });
    route(req, state, exchange)
      .catch((err: unknown) =>
        err instanceof StubHttpError
          ? openAiError(err.status, err.message, err.type)
          : openAiError(500, `Stub failure: ${err instanceof Error ? err.message : String(err)}`, "server_error"),
      )
      .then((reply) => writeReply(res, reply));
  });
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}/v1`,
    origin,
    port,
    requests: state.requests,
    setBrain: (brain) => {
      state.brain = brain;
    },
    setTranscript: (text) => {
      state.transcript = text;
    },
    setLatency: (ms) => {
      state.latencyMs = latency(ms);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
