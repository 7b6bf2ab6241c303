import { randomUUID } from "node:crypto";
import { AppError } from "../errors";
import { getEnv } from "../env";
import type { Chatflow } from "../db/generated/client";
import type { ChatType } from "../db/generated/enums";
import { findExchangeOfRun } from "../db/queries/chat-messages";
import { readHistory, storeExchange } from "./session-history";
import type { Caller } from "../access/callers";
import { assertChatflowInScope, mayAct } from "../access/permissions";
import { enforcePublicChatflowLimit } from "../access/rate-limit";
import { checkDataUrlUpload, storeUpload, type CheckedUpload } from "../security/uploads";
import { withUploadsLock } from "../security/stored-files";
import type { PredictionBody } from "../schemas/prediction";
import type { PredictionResponse, SourceDocument, ToolStart } from "../schemas/prediction-stream";
import type { BuiltFlow, HistoryMessage } from "../flow";
import { type ProcessorContext, runJob } from "../queue";
import { getChatflowForRun } from "./chatflows";
import { chatflowAtVersion, chatflowForRequest, loadChatflowVersion, type VersionSelector } from "./chatflow-versions";
import { getBuiltFlow } from "./flows";
import { fetchUrlUploads } from "./prediction-input";
import { speechSettings, transcribe } from "./speech";
import { visitorsSeeToolCalls } from "./public-chatbot";

/** How many stored messages of a session are read for memory nodes (they window further). */
const HISTORY_READ_LIMIT = 200;

export interface PredictionRequest {
  chatflowId: string;
  body: PredictionBody;
  caller: Caller;
  /** The browser's Origin header, checked for public chatflows. */
  origin: string | null;
  clientIp: string;
  /** The API request's id (lib/http/route.ts): a queued run's worker log lines carry it. */
  requestId?: string;
  /** `?version=N` or `draft`: a manager pins the version to run (else the published one). */
  version?: number | "draft";
}

/** The answer of a prediction: the JSON body, and what the stream's events carry (lib/schemas/prediction-stream.ts). */
export type PredictionResult = PredictionResponse;

/** A prediction the caller may run, ready to execute (here, or on a worker in queue mode). */
export interface PredictionRun {
  chatId: string;
  sessionId: string;
  /** The chatflow version that answers (X-Chatflow-Version, the SSE `metadata` event). */
  version: number;
  execute(opts: {
    onToken?: (t: string) => void;
    /** A tool call of the answer begins (streamed answers show it as a running step). */
    onToolStart?: (start: ToolStart) => void;
    signal?: AbortSignal;
  }): Promise<PredictionResult>;
}

/** A checked prediction, ready to run: everything that can be refused with a 4xx already was. */
export interface PreparedPrediction extends PredictionRun {
  chatflow: Chatflow;
  flow: BuiltFlow;
}

/**
 * Whether the caller may run this chatflow as its manager (admins any; builders and their keys their
 * own, keys in scope), as opposed to as the public. 403 for a key scoped elsewhere.
 */
export function mayRunAsManager(chatflow: Pick<Chatflow, "id" | "ownerId">, caller: Caller): boolean {
  assertChatflowInScope(caller, chatflow.id);
  return mayAct(caller, "chatflow.predict", chatflow.ownerId);
}

/**
 * Who may chat with a chatflow (predict, rate answers, leave a lead): its manager, or anyone on a
 * public chatflow from an allowed origin (or no browser origin), within the public rate limit.
 */
export async function assertMayChat(
  chatflow: Chatflow,
  req: { chatflowId: string; caller: Caller; origin: string | null; clientIp: string },
): Promise<void> {
  if (mayRunAsManager(chatflow, req.caller)) return;
  // Another user's private chatflow is unknown to every other caller, anonymous ones included: the
  // same answer as for an unknown id, so nobody can learn which private ids exist.
  if (!chatflow.isPublic) throw new AppError("not_found", `Chatflow ${req.chatflowId} not found.`);
  if (req.origin && !chatflow.allowedOrigins.includes(req.origin)) {
    throw new AppError("forbidden", `Origin ${req.origin} is not allowed to use this chatflow.`);
  }
  await enforcePublicChatflowLimit(chatflow, req.clientIp);
}

/**
 * A chatflow the caller may run (manager, or public), at its published version: what the streaming
 * and uploads checks answer for. 404 otherwise.
 */
export async function getRunnableChatflow(id: string, caller: Caller): Promise<Chatflow> {
  const chatflow = await getChatflowForRun(id);
  if (!mayRunAsManager(chatflow, caller) && !chatflow.isPublic)
    throw new AppError("not_found", `Chatflow ${id} not found.`);
  return chatflowAtVersion(chatflow, "published");
}

/** Splits and checks uploads: images need a model that takes them, audio needs speech-to-text on. */
function checkUploads(body: PredictionBody, flow: BuiltFlow, chatflow: Chatflow) {
  const env = getEnv();
  const uploads = body.uploads ?? [];
  if (uploads.length > env.UPLOAD_MAX_FILES) {
    throw new AppError("validation_failed", `uploads: at most ${env.UPLOAD_MAX_FILES} files per request.`);
  }
  const checked = uploads.map((u, i) => {
    const kind = u.type === "audio" ? "audio" : "image";
    const field = `uploads.${i}`;
    if (kind === "image" && !flow.allowsImages) {
      throw new AppError(
        "bad_request",
        `${field}: image uploads are not enabled in this chatflow (turn on "Allow image uploads" on its chat model).`,
      );
    }
    if (kind === "audio" && !speechSettings(chatflow.speechToText)) {
      throw new AppError("bad_request", `${field}: speech-to-text is not enabled in this chatflow.`);
    }
    return checkDataUrlUpload(u, { kind, maxBytes: env.UPLOAD_MAX_BYTES, field });
  });
  return { images: checked.filter((u) => u.kind === "image"), audio: checked.filter((u) => u.kind === "audio") };
}

/** Validates a prediction and builds (or reuses) the flow; throws 4xx before any answer starts. */
export async function preparePrediction(req: PredictionRequest, chatType: ChatType): Promise<PreparedPrediction> {
  const row = await getChatflowForRun(req.chatflowId);
  await assertMayChat(row, req);
  const chatflow = await chatflowForRequest(row, req.caller, req.version);
  const flow = await getBuiltFlow(chatflow, req.body.overrideConfig);
  // `url` uploads are fetched only now that the caller may run the chatflow (and was rate-limited).
  const body = await fetchUrlUploads(req.body, { allowsImages: flow.allowsImages });
  const uploads = checkUploads(body, flow, chatflow);
  const chatId = body.chatId ?? body.overrideConfig?.sessionId ?? randomUUID();
  const sessionId = body.overrideConfig?.sessionId ?? chatId;
  return {
    chatflow,
    flow,
    chatId,
    sessionId,
    version: chatflow.version,
    execute: (opts) => executePrediction({ chatflow, flow, body, chatId, sessionId, chatType, uploads, ...opts }),
  };
}

/**
 * What the prediction route calls: embedded mode prepares and runs the prediction here; queue mode
 * (MODE=queue) checks here what needs no flow build (chatflow, access, rate limit) and runs the rest
 * on a worker (runPredictionJob), relaying its tokens.
 */
export async function startPrediction(req: PredictionRequest, chatType: ChatType): Promise<PredictionRun> {
  if (getEnv().MODE !== "queue") {
    const prepared = await preparePrediction(req, chatType);
    return withholdToolCalls(prepared, prepared.chatflow, req.caller);
  }
  const row = await getChatflowForRun(req.chatflowId);
  await assertMayChat(row, req);
  const chatflow = await chatflowForRequest(row, req.caller, req.version);
  return withholdToolCalls(queuedPrediction(req, chatType, chatflow), chatflow, req.caller);
}

/**
 * What an anonymous caller (the widget, the full-page chat, any script without a key) sees of an
 * answer's tool calls: nothing, unless the chatflow's chatbot settings show them to visitors. The
 * stream's `toolStart` events and the answer's `usedTools` are left out here, on the server, so a
 * visitor cannot read them off the wire either. API keys and studio users always get them; the
 * stored exchange keeps them (Conversations shows them to the builder).
 */
function withholdToolCalls(
  run: PredictionRun,
  chatflow: Pick<Chatflow, "chatbotConfig">,
  caller: Caller,
): PredictionRun {
  if (caller.kind !== "anonymous" || visitorsSeeToolCalls(chatflow)) return run;
  return {
    chatId: run.chatId,
    sessionId: run.sessionId,
    version: run.version,
    async execute({ onToolStart: _withheld, ...opts }) {
      const { usedTools: _used, ...answer } = await run.execute(opts);
      return answer;
    },
  };
}

/** Queue mode: the run goes to a worker (runPredictionJob); its tokens and tool starts are relayed. */
function queuedPrediction(req: PredictionRequest, chatType: ChatType, chatflow: Chatflow): PredictionRun {
  const { body } = req;
  const uploads = body.uploads?.length ?? 0;
  if (uploads > getEnv().UPLOAD_MAX_FILES)
    throw new AppError("validation_failed", `uploads: at most ${getEnv().UPLOAD_MAX_FILES} files per request.`);
  const chatId = body.chatId ?? body.overrideConfig?.sessionId ?? randomUUID();
  const sessionId = body.overrideConfig?.sessionId ?? chatId;
  return {
    chatId,
    sessionId,
    version: chatflow.version,
    async execute({ onToken, onToolStart, signal }) {
      let tokens = 0;
      const input: PredictionJob = {
        chatflowId: chatflow.id,
        version: chatflow.version,
        body,
        chatId,
        sessionId,
        chatType,
        stream: !!onToken,
      };
      return runJob<PredictionResult>("predictions", input, {
        signal,
        ...(req.requestId ? { requestId: req.requestId } : {}),
        onEvent: (event) => {
          if (event.type === "attempt" && event.attempt > 1 && tokens > 0)
            throw new AppError(
              "worker_lost",
              "The answer was interrupted (its worker stopped) and is being retried; the chat history will hold it.",
            );
          if (event.type === "event" && event.name === "token" && typeof event.data === "string" && onToken) {
            tokens++;
            onToken(event.data);
          }
          if (event.type === "event" && event.name === "toolStart" && onToolStart && isToolStart(event.data))
            onToolStart(event.data);
        },
      });
    },
  };
}

/** A prediction job (queue mode): plain data; the worker builds the flow itself. */
export interface PredictionJob {
  chatflowId: string;
  /** The chatflow version the API process chose (published, or pinned): the worker builds that one. */
  version?: number;
  body: PredictionBody;
  chatId: string;
  sessionId: string;
  chatType: ChatType;
  /** Relay the tokens as they come (a streamed answer). */
  stream: boolean;
  requestId?: string;
}

/**
 * Runs a prediction job on a worker: builds (or reuses) the flow, checks the uploads (a 4xx travels
 * back to the client), runs it and stores the exchange under ids derived from the job id. A retried
 * job (its first worker died) whose exchange was already stored answers from the store without
 * calling the model again.
 */
export async function runPredictionJob(job: PredictionJob, ctx: ProcessorContext): Promise<PredictionResult> {
  // Jobs queued before versions existed carry none: they run the published version.
  const chatflow = await chatflowAtVersion(await getChatflowForRun(job.chatflowId), job.version ?? "published");
  const { chatId, sessionId } = job;
  const flow = await getBuiltFlow(chatflow, job.body.overrideConfig);
  // `url` uploads are fetched here, where the flow says whether it takes images (the API checked access).
  const body = await fetchUrlUploads(job.body, { allowsImages: flow.allowsImages });
  const uploads = checkUploads(body, flow, chatflow);
  if (ctx.attempt > 1) {
    const stored = await findExchangeOfRun(ctx.jobId);
    if (stored) {
      const { user, api } = stored;
      const usedTools = Array.isArray(api.usedTools) && api.usedTools.length ? api.usedTools : undefined;
      return {
        text: api.content,
        question: user.content,
        chatId: api.chatId,
        chatMessageId: api.id,
        sessionId: api.sessionId,
        ...(api.memoryType ? { memoryType: api.memoryType } : {}),
        chatflowVersion: chatflow.version,
        ...(usedTools ? { usedTools } : {}),
        ...answerSources(
          body,
          Array.isArray(api.sourceDocuments) ? (api.sourceDocuments as SourceDocument[]) : undefined,
        ),
      } as PredictionResult;
    }
  }
  return executePrediction({
    chatflow,
    flow,
    body,
    chatId,
    sessionId,
    chatType: job.chatType,
    uploads,
    runId: ctx.jobId,
    signal: ctx.signal,
    ...(job.stream
      ? {
          onToken: (token: string) => ctx.emit("token", token),
          onToolStart: (start: ToolStart) => ctx.emit("toolStart", start),
        }
      : {}),
  });
}

async function executePrediction(args: {
  runId?: string;
  chatflow: Chatflow;
  flow: BuiltFlow;
  body: PredictionBody;
  chatId: string;
  sessionId: string;
  chatType: ChatType;
  uploads: { images: CheckedUpload[]; audio: CheckedUpload[] };
  onToken?: (t: string) => void;
  onToolStart?: (start: ToolStart) => void;
  signal?: AbortSignal;
  /** A test run: no stored history is read and nothing is stored (no user conversation is touched). */
  detached?: boolean;
}): Promise<PredictionResult> {
  const { chatflow, flow, body, chatId, sessionId, uploads } = args;
  const askedAt = new Date();
  let question = body.question?.trim() ?? "";
  if (!question && uploads.audio[0])
    question = await transcribe(
      uploads.audio[0],
      speechSettings(chatflow.speechToText)!,
      chatflow.ownerId,
      args.signal,
    );
  const stored: HistoryMessage[] =
    flow.memoryType && !args.detached
      ? await readHistory(
          chatflow.id,
          sessionId,
          // A memory window of 20 messages needs only the latest 20 rows, not 200.
          Math.min(HISTORY_READ_LIMIT, flow.historyLimit ?? HISTORY_READ_LIMIT),
        )
      : [];
  const result = await flow.run({
    question,
    history: [...(body.history ?? []), ...stored],
    images: uploads.images.map((u) => ({ mime: u.mime, base64: u.bytes.toString("base64") })),
    signal: args.signal,
    onToken: args.onToken,
    onToolStart: args.onToolStart,
  });
  const files = [...uploads.images, ...uploads.audio];
  // Stored files are shared by content hash: write and reference them under the lock a deletion takes.
  const persist = async () =>
    storeExchange({
      chatflowId: chatflow.id,
      sessionId,
      chatId,
      chatType: args.chatType,
      memoryType: flow.memoryType,
      question,
      fileUploads: await storeUploads(chatflow.id, files),
      answer: result.text,
      askedAt,
      answeredAt: new Date(),
      usedTools: result.usedTools.length ? result.usedTools : undefined,
      sourceDocuments: result.sourceDocuments?.length ? result.sourceDocuments : undefined,
      chatflowVersion: chatflow.version,
      runId: args.runId,
    });
  const ids = args.detached
    ? { apiMessageId: "" }
    : files.length
      ? await withUploadsLock(chatflow.id, persist)
      : await persist();
  return {
    text: result.text,
    question,
    chatId,
    chatMessageId: ids.apiMessageId,
    sessionId,
    ...(flow.memoryType ? { memoryType: flow.memoryType } : {}),
    chatflowVersion: chatflow.version,
    ...(result.usedTools.length ? { usedTools: result.usedTools } : {}),
    ...answerSources(body, result.sourceDocuments),
  };
}

/**
 * Runs one question against a chatflow at a version without touching user conversations (the
 * test runner): no caller check (the caller of the run was checked), no rate limit, no stored
 * history (`body.history` is the only history), nothing stored (`chatMessageId` is ""), uploads
 * checked but not stored. Always in this process, also in queue mode. Throws AppError as a
 * prediction would (4xx for a bad body, 422 invalid_graph, 502/503/504 for upstreams).
 */
export async function runDetachedPrediction(args: {
  chatflowId: string;
  version: VersionSelector;
  body: PredictionBody;
  signal?: AbortSignal;
  onToolStart?: (start: ToolStart) => void;
}): Promise<PredictionResult & { chatflowVersion: number }> {
  const chatflow = await loadChatflowVersion(args.chatflowId, args.version);
  const flow = await getBuiltFlow(chatflow, args.body.overrideConfig);
  const body = await fetchUrlUploads(args.body, { allowsImages: flow.allowsImages });
  const uploads = checkUploads(body, flow, chatflow);
  const sessionId = `test-${randomUUID()}`;
  const result = await executePrediction({
    chatflow,
    flow,
    body,
    chatId: sessionId,
    sessionId,
    chatType: "INTERNAL",
    uploads,
    detached: true,
    ...(args.signal ? { signal: args.signal } : {}),
    ...(args.onToolStart ? { onToolStart: args.onToolStart } : {}),
  });
  return { ...result, chatflowVersion: chatflow.version };
}

/**
 * The source documents an answer carries: those the flow reported (its nodes report them only with
 * "Return Source Documents" on), unless the caller says `returnSourceDocuments: false`; a caller
 * asking with `true` always gets the field (empty when there are none), as before.
 */
function answerSources(body: PredictionBody, reported: SourceDocument[] | undefined) {
  const asked = body.overrideConfig?.returnSourceDocuments;
  if (asked === false) return {};
  if (asked === true) return { sourceDocuments: reported ?? [] };
  return reported?.length ? { sourceDocuments: reported } : {};
}

/** A relayed `toolStart` event's data (it crossed Redis as JSON). */
function isToolStart(data: unknown): data is ToolStart {
  return typeof data === "object" && data !== null && typeof (data as { tool?: unknown }).tool === "string";
}

async function storeUploads(chatflowId: string, uploads: CheckedUpload[]) {
  if (!uploads.length) return undefined;
  const dataDir = getEnv().DATA_DIR;
  return Promise.all(
    uploads.map(async (u) => ({
      type: u.kind === "audio" ? "audio" : "file",
      name: u.name,
      mime: u.mime,
      path: await storeUpload(dataDir, chatflowId, u),
    })),
  );
}
