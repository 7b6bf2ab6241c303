import { randomUUID } from "node:crypto";
import { AppError } from "@/common/errors";
import { getEnv } from "../env";
import type { Chatflow, Execution } from "../db/generated/client";
import type { ChatType } from "../db/generated/enums";
import { findExchangeOfRun } from "../db/queries/chat-messages";
import { findExecutionOfRun } from "../db/queries/executions";
import { readHistory, storeExchange } from "./session-history";
import type { Caller } from "@/common/access/callers";
import { assertChatflowInScope, mayAct } from "@/common/access/permissions";
import { enforcePublicChatflowLimit, type RateLimitState } from "../access/rate-limit";
import { checkDataUrlUpload, storeUpload, type CheckedUpload } from "../security/uploads";
import { withUploadsLock } from "../security/stored-files";
import type { PredictionBody } from "@/common/schemas/prediction";
import {
  AGENTFLOW_EVENTS,
  type AgentflowEventName,
  type ExecutedNode,
  type PredictionResponse,
  type SourceDocument,
  type ToolStart,
} from "@/common/schemas/prediction-stream";
import type { BuiltFlow, HistoryMessage, RunResult } from "../flow";
import { type RunKind, runTransport } from "../jobs";
import { inProcessTransport } from "../jobs/transport";
import { getChatflowForRun } from "./chatflows";
import { chatflowAtVersion, chatflowForRequest, loadChatflowVersion, type VersionSelector } from "./chatflow-versions";
import { getBuiltFlow } from "./flows";
import { fetchUrlUploads } from "./prediction-input";
import { speechSettings, transcribe } from "./speech";
import { visitorsSeeToolCalls } from "./public-chatbot";
import { findPausedRun, holdLease, runAgentflowTurn } from "./agentflow-runs";
import { awaitRunOfRetriedJob, endedRunError } from "./agentflow-takeover";
import { subflowRunner } from "./subflows";
import { countFailures, recordAnswerUsage } from "./usage";
import { withUsageRecorder } from "../usage/recorder";
import type { RunUsage } from "../usage/tally";

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

/** The answer of a prediction: the JSON body, and what the stream's events carry (common/schemas/prediction-stream.ts). */
export type PredictionResult = PredictionResponse;

/** A prediction the caller may run, ready to execute (here, or on a worker in queue mode). */
export interface PredictionRun {
  chatId: string;
  sessionId: string;
  /** The chatflow version that answers (X-Chatflow-Version, the SSE `metadata` event). */
  version: number;
  /** Where an anonymous caller stands against the chatflow's public rate limit (X-RateLimit-*). */
  rateLimit?: RateLimitState;
  execute(opts: {
    onToken?: (t: string) => void;
    /** A tool call of the answer begins (streamed answers show it as a running step). */
    onToolStart?: (start: ToolStart) => void;
    /** An agentflow's progress (Flowise's agentFlowEvent, nextAgentFlow, agentFlowExecutedData, action). */
    onAgentflowEvent?: (name: AgentflowEventName, data: unknown) => void;
    signal?: AbortSignal;
  }): Promise<PredictionResult>;
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
 * The 404 for a chatflow the caller may not see. Unknown and private ids answer in the same words
 * (nobody learns which private ids exist); a caller without credentials is told a key may be missing.
 */
function chatflowNotFound(id: string, caller: Caller): AppError {
  const hint =
    caller.kind === "anonymous"
      ? " If it is private, send an API key with the `predict` permission: Authorization: Bearer <key>."
      : "";
  return new AppError("not_found", `Chatflow ${id} not found.${hint}`);
}

/** The chatflow row a caller asks to chat with, or the caller's 404 (see chatflowNotFound). */
export async function findRunnable(id: string, caller: Caller): Promise<Chatflow> {
  try {
    return await getChatflowForRun(id);
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found") throw chatflowNotFound(id, caller);
    throw err;
  }
}

/**
 * Who may chat with a chatflow (predict, rate answers, leave a lead): its manager, or anyone on a
 * public chatflow from an allowed origin (or no browser origin), within the public rate limit.
 */
export async function assertMayChat(
  chatflow: Chatflow,
  req: { chatflowId: string; caller: Caller; origin: string | null; clientIp: string },
): Promise<RateLimitState | undefined> {
  if (mayRunAsManager(chatflow, req.caller)) return undefined;
  // Another user's private chatflow is unknown to every other caller, anonymous ones included: the
  // same answer as for an unknown id, so nobody can learn which private ids exist.
  if (!chatflow.isPublic) throw chatflowNotFound(req.chatflowId, req.caller);
  if (req.origin && !chatflow.allowedOrigins.includes(req.origin)) {
    throw new AppError("forbidden", `Origin ${req.origin} is not allowed to use this chatflow.`);
  }
  return enforcePublicChatflowLimit(chatflow, req.clientIp);
}

/**
 * A chatflow the caller may run (manager, or public), at its published version: what the streaming
 * and uploads checks answer for. 404 otherwise.
 */
export async function getRunnableChatflow(id: string, caller: Caller): Promise<Chatflow> {
  const chatflow = await findRunnable(id, caller);
  if (!mayRunAsManager(chatflow, caller) && !chatflow.isPublic) throw chatflowNotFound(id, caller);
  return chatflowAtVersion(chatflow, "published");
}

/** 400 for more uploads than UPLOAD_MAX_FILES: checked before anything is fetched or built. */
function checkUploadCount(body: PredictionBody): void {
  const max = getEnv().UPLOAD_MAX_FILES;
  if ((body.uploads?.length ?? 0) > max)
    throw new AppError("validation_failed", `uploads: at most ${max} files per request.`);
}

/** Splits and checks uploads: images need a model that takes them, audio needs speech-to-text on. */
function checkUploads(body: PredictionBody, flow: BuiltFlow, chatflow: Chatflow) {
  const env = getEnv();
  const uploads = body.uploads ?? [];
  checkUploadCount(body);
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

// A prediction is a run through these steps, in this order, whichever transport runs it:
//   resolve the chatflow and its version, authorize (resolveRunnable, here, for every transport)
//   → inputs and uploads, build (prepareRun, where the run executes: here, or on a queue worker)
//   → run, store, answer (executePrediction).

/**
 * Step 1: the chatflow row, the caller's right to chat with it (and the rate limit, with where the
 * caller stands against it), the version to run.
 */
async function resolveRunnable(req: PredictionRequest): Promise<{ chatflow: Chatflow; rateLimit?: RateLimitState }> {
  const row = await findRunnable(req.chatflowId, req.caller);
  const rateLimit = await assertMayChat(row, req);
  return { chatflow: await chatflowForRequest(row, req.caller, req.version), ...(rateLimit ? { rateLimit } : {}) };
}

/** The chat a prediction belongs to (Flowise: `chatId`, or the override's `sessionId`) and its session. */
function runIds(body: PredictionBody): { chatId: string; sessionId: string } {
  const chatId = body.chatId ?? body.overrideConfig?.sessionId ?? randomUUID();
  return { chatId, sessionId: body.overrideConfig?.sessionId ?? chatId };
}

/** Step 2: the flow built (or reused), `url` uploads fetched, uploads checked against what the flow takes. */
async function prepareRun(resolved: Chatflow, sent: PredictionBody, runId?: string) {
  // An agentflow's resume: its paused run (404/409 before any answer starts), at the version it began with.
  const paused = await findPausedRun(resolved, sent, runId);
  const chatflow =
    paused && paused.version !== resolved.version ? await chatflowAtVersion(resolved, paused.version) : resolved;
  const flow = await getBuiltFlow(chatflow, sent.overrideConfig);
  // `url` uploads are fetched only now that the caller may run the chatflow (and was rate-limited).
  const body = await fetchUrlUploads(sent, { allowsImages: flow.allowsImages });
  return { chatflow, flow, body, uploads: checkUploads(body, flow, chatflow), ...(paused ? { paused } : {}) };
}

type PreparedRun = Awaited<ReturnType<typeof prepareRun>>;

/** A prediction as queued (plain data: it may cross Redis to a worker, which builds the flow itself). */
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
  /** The queued job's id, stamped when it is handed to the queue (a retry of the job finds its agentflow run by it). */
  runId?: string;
}

/**
 * Predictions as a kind of run (lib/jobs): prepared and executed in this process, or on a queue worker
 * (runOnWorker). A retried job (its first worker died) whose exchange was already stored answers from
 * the store without calling the model again.
 */
export const predictionRuns: RunKind<PredictionJob, PreparedRun & { job: PredictionJob }, PredictionResult, Chatflow> =
  {
    queue: "predictions",
    /** `resolved`: the chatflow at the job's version, when the process that resolved it runs the job. */
    async prepare(job, resolved) {
      // Jobs queued before versions existed carry none: they run the published version.
      const chatflow =
        resolved ?? (await chatflowAtVersion(await getChatflowForRun(job.chatflowId), job.version ?? "published"));
      return { ...(await prepareRun(chatflow, job.body, job.runId)), job };
    },
    async handOver(job, _known, runId) {
      return { input: { ...job, runId }, release: async () => {} };
    },
    async execute(prepared, ctx) {
      const { job } = prepared;
      let takenOver: Execution | undefined;
      let release = () => {};
      if (ctx.attempt > 1 && ctx.jobId) {
        const stored = await storedAnswerOfRun(ctx.jobId, prepared);
        if (stored) return stored;
        // A retried job (its worker died): the agentflow run it left goes on from its last finished node,
        // here once its lease runs out, or in the process that took it over first (its answer is read).
        if (prepared.flow.agentflow) {
          const run = await awaitRunOfRetriedJob(ctx.jobId, ctx.signal);
          if (run && "ended" in run) {
            const answer = await storedAnswerOfRun(ctx.jobId, prepared);
            if (answer) return answer;
            throw endedRunError(run.ended);
          }
          takenOver = run?.take;
          // Held from the takeover on (building the flow may take longer than a short lease) until it ends.
          if (takenOver) release = holdLease(takenOver.id);
        }
      }
      try {
        return await executePrediction({
          ...prepared,
          chatId: job.chatId,
          sessionId: job.sessionId,
          chatType: job.chatType,
          ...(ctx.jobId ? { runId: ctx.jobId } : {}),
          ...(takenOver ? { takenOver } : {}),
          signal: ctx.signal,
          ...(job.stream
            ? {
                onToken: (token: string) => ctx.emit("token", token),
                onToolStart: (start: ToolStart) => ctx.emit("toolStart", start),
                onAgentflowEvent: (name: AgentflowEventName, data: unknown) => ctx.emit(name, data),
              }
            : {}),
        });
      } finally {
        release();
      }
    },
  };

/**
 * Step 1 for every caller: the chatflow resolved and the caller authorized, and the job that runs the
 * rest (plain data: a queue worker may take it).
 */
async function resolveJob(
  req: PredictionRequest,
  chatType: ChatType,
): Promise<{ chatflow: Chatflow; job: PredictionJob; rateLimit?: RateLimitState }> {
  const { chatflow, rateLimit } = await resolveRunnable(req);
  checkUploadCount(req.body);
  const job: PredictionJob = {
    chatflowId: chatflow.id,
    version: chatflow.version,
    body: req.body,
    ...runIds(req.body),
    chatType,
    // A streamed answer relays its tokens as they come (a worker emits them only then).
    stream: !!req.body.streaming,
    ...(req.requestId ? { requestId: req.requestId } : {}),
  };
  return { chatflow, job, ...(rateLimit ? { rateLimit } : {}) };
}

/**
 * What the prediction route calls: resolves and authorizes here, then starts the run on this
 * process's transport (lib/jobs: in this process, which also builds it now, so a bad input is a 4xx
 * before any answer starts; or a queue worker, which builds it when it takes the job), relaying its
 * tokens and tool starts.
 */
export async function startPrediction(req: PredictionRequest, chatType: ChatType): Promise<PredictionRun> {
  const { chatflow, job, rateLimit } = await resolveJob(req, chatType);
  const started = await runTransport().start(predictionRuns, job, {
    known: chatflow,
    ...(req.requestId ? { requestId: req.requestId } : {}),
  });
  const run: PredictionRun = {
    chatId: job.chatId,
    sessionId: job.sessionId,
    version: chatflow.version,
    ...(rateLimit ? { rateLimit } : {}),
    execute: ({ onToken, onToolStart, onAgentflowEvent, signal }) =>
      started.execute({
        ...(signal ? { signal } : {}),
        onEvent: (name, data) => {
          if (name === "token" && typeof data === "string") onToken?.(data);
          else if (name === "toolStart" && isToolStart(data)) onToolStart?.(data);
          else if (isAgentflowEvent(name)) onAgentflowEvent?.(name, data);
        },
      }),
  };
  return withholdToolCalls(run, chatflow, req.caller);
}

/**
 * A run of a flow's published version started by a trigger (a webhook call, a schedule's tick): the
 * trigger authorized it by its own means (a signature, the owner's schedule), so there is no caller
 * check and no public rate limit. The same job and steps as a prediction; `here` runs it in this
 * process whatever the transport (a schedule's tick already runs on a queue worker).
 */
export async function startTriggeredPrediction(args: {
  chatflow: Chatflow;
  body: PredictionBody;
  requestId?: string;
  here?: boolean;
}): Promise<{ chatId: string; sessionId: string; execute(): Promise<PredictionResult> }> {
  const { chatflow, body } = args;
  checkUploadCount(body);
  const job: PredictionJob = {
    chatflowId: chatflow.id,
    version: chatflow.version,
    body: { ...body, streaming: false },
    ...runIds(body),
    chatType: "EXTERNAL",
    stream: false,
    ...(args.requestId ? { requestId: args.requestId } : {}),
  };
  const transport = args.here ? inProcessTransport : runTransport();
  const started = await transport.start(predictionRuns, job, {
    known: chatflow,
    ...(args.requestId ? { requestId: args.requestId } : {}),
  });
  return { chatId: job.chatId, sessionId: job.sessionId, execute: () => started.execute({}) };
}

/**
 * A prediction run to its answer in this process, whatever the transport: for work that already runs
 * where it should (a domain analysis job on its worker). Same steps and checks as startPrediction.
 */
export async function predictHere(req: PredictionRequest, chatType: ChatType): Promise<PredictionResult> {
  const { chatflow, job } = await resolveJob({ ...req, body: { ...req.body, streaming: false } }, chatType);
  return predictionRuns.execute(await predictionRuns.prepare(job, chatflow), { attempt: 1, emit: () => {} });
}

/**
 * What an anonymous caller (the widget, the full-page chat, any script without a key) sees of an
 * answer's tool calls: nothing, unless the chatflow's chatbot settings show them to visitors. The
 * stream's `toolStart` events and the answer's `usedTools` are left out here, on the server, so a
 * visitor cannot read them off the wire either. An agentflow's steps are told as steps only (which
 * node, how it ended, how long it took): their data (prompts, messages, tool and HTTP requests and
 * responses, state, errors) is the builder's. API keys and studio users always get everything; the
 * stored exchange and the execution keep it (Conversations and Executions show it to the builder).
 */
function withholdToolCalls(
  run: PredictionRun,
  chatflow: Pick<Chatflow, "chatbotConfig">,
  caller: Caller,
): PredictionRun {
  if (caller.kind !== "anonymous" || visitorsSeeToolCalls(chatflow)) return run;
  return {
    ...run,
    async execute({ onToolStart: _withheld, onAgentflowEvent, ...opts }) {
      const { usedTools: _used, ...answer } = await run.execute({
        ...opts,
        ...(onAgentflowEvent
          ? {
              onAgentflowEvent: (name, data) =>
                onAgentflowEvent(name, name === "agentFlowExecutedData" ? stepsOnly(data) : data),
            }
          : {}),
      });
      return answer.agentFlowExecutedData
        ? { ...answer, agentFlowExecutedData: stepsOnly(answer.agentFlowExecutedData) }
        : answer;
    },
  };
}

/** An agentflow run's executed nodes without what they read, wrote or said: a visitor's view. */
export function stepsOnly(executed: unknown): ExecutedNode[] {
  if (!Array.isArray(executed)) return [];
  return (executed as ExecutedNode[]).map((n) => ({
    nodeId: n.nodeId,
    nodeLabel: n.nodeLabel,
    data: {},
    previousNodeIds: n.previousNodeIds,
    status: n.status,
    ...(n.startedAt !== undefined ? { startedAt: n.startedAt } : {}),
    ...(n.timeMs !== undefined ? { timeMs: n.timeMs } : {}),
  }));
}

/** The answer a retried job's first worker already stored, or null. */
async function storedAnswerOfRun(jobId: string, prepared: PreparedRun): Promise<PredictionResult | null> {
  const stored = await findExchangeOfRun(jobId);
  if (!stored) return null;
  // An agentflow's answer names its run, its steps and what it waits for, as the first answer would.
  const run = prepared.flow.agentflow ? await findExecutionOfRun({ runId: jobId }) : null;
  const { user, api } = stored;
  const usedTools = Array.isArray(api.usedTools) && api.usedTools.length ? api.usedTools : undefined;
  return {
    text: api.content,
    question: user.content,
    chatId: api.chatId,
    chatMessageId: api.id,
    sessionId: api.sessionId,
    ...(api.memoryType ? { memoryType: api.memoryType } : {}),
    chatflowVersion: prepared.chatflow.version,
    ...(usedTools ? { usedTools } : {}),
    ...answerSources(
      prepared.body,
      Array.isArray(api.sourceDocuments) ? (api.sourceDocuments as SourceDocument[]) : undefined,
    ),
    ...(run
      ? {
          executionId: run.id,
          agentFlowExecutedData: run.executedData,
          ...(run.status === "paused" && run.action ? { action: run.action } : {}),
        }
      : {}),
  } as PredictionResult;
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
  onAgentflowEvent?: (name: AgentflowEventName, data: unknown) => void;
  signal?: AbortSignal;
  /** A test run: no stored history is read and nothing is stored (no user conversation is touched). */
  detached?: boolean;
  /** An agentflow's paused run this request resumes. */
  paused?: Execution;
  /** An agentflow run this process took over (a retried job's, or one an embedded or worker sweep found). */
  takenOver?: Execution;
}): Promise<PredictionResult> {
  const { chatflow, flow, body, chatId, sessionId, uploads } = args;
  const askedAt = new Date();
  let question = body.question?.trim() ?? "";
  // A resume stores the person's answer as the question (Flowise: the feedback, else proceed/reject).
  if (!question && body.humanInput) question = body.humanInput.feedback?.trim() || body.humanInput.type;
  if (!question && uploads.audio[0])
    question = await transcribe(
      uploads.audio[0],
      speechSettings(chatflow.speechToText)!,
      chatflow.ownerId,
      args.signal,
    );
  const stored: HistoryMessage[] =
    (flow.memoryType || flow.readsHistory) && !args.detached
      ? await readHistory(
          chatflow.id,
          sessionId,
          // A memory window of 20 messages needs only the latest 20 rows, not 200.
          Math.min(HISTORY_READ_LIMIT, flow.historyLimit ?? HISTORY_READ_LIMIT),
        )
      : [];
  const history = [...(body.history ?? []), ...stored];
  // Usage (issue 33): the run's time, and a failed run counted, for the Usage API.
  const runStarted = performance.now();
  const result: RunResult & { agentflow?: AgentflowAnswer } = await countFailures(
    args.detached ? undefined : chatflow.id,
    runStarted,
    async () =>
      flow.agentflow
        ? runAgentflowPrediction(args, flow.agentflow, question, history)
        : flow.run({
            question,
            history,
            images: uploads.images.map((u) => ({ mime: u.mime, base64: u.bytes.toString("base64") })),
            signal: args.signal,
            onToken: args.onToken,
            onToolStart: args.onToolStart,
          }),
  );
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
  const usage = args.detached
    ? undefined
    : await recordAnswerUsage({
        chatflowId: chatflow.id,
        ...(ids.apiMessageId ? { chatMessageId: ids.apiMessageId } : {}),
        ...(result.agentflow?.executionId ? { executionId: result.agentflow.executionId } : {}),
        ...(result.usage ? { usage: result.usage } : {}),
        latencyMs: performance.now() - runStarted,
      });
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
    ...(result.usage ? { usage: answerUsage(result.usage, usage?.costUsd) } : {}),
    ...(result.agentflow ?? {}),
  };
}

/** What an agentflow's answer adds (Flowise's fields): its execution, its nodes, a human input's action. */
type AgentflowAnswer = Pick<PredictionResult, "executionId" | "agentFlowExecutedData" | "action">;

/** An agentflow's turn (lib/services/agentflow-runs.ts) as a run's result, with Flowise's extra fields. */
async function runAgentflowPrediction(
  args: Parameters<typeof executePrediction>[0],
  agentflow: NonNullable<BuiltFlow["agentflow"]>,
  question: string,
  history: HistoryMessage[],
): Promise<RunResult & { agentflow: AgentflowAnswer }> {
  // An agentflow's model steps pass no callbacks: their tokens are counted through LangChain's implicit config.
  const { value: turn, usage } = await withUsageRecorder(() =>
    runAgentflowTurn({
      flow: agentflow,
      chatflow: args.chatflow,
      chatId: args.chatId,
      sessionId: args.sessionId,
      question,
      history,
      body: args.body,
      chatType: args.chatType,
      ...(args.paused ? { paused: args.paused } : {}),
      ...(args.takenOver ? { takenOver: args.takenOver } : {}),
      ...(args.runId ? { runId: args.runId } : {}),
      ...(args.signal ? { signal: args.signal } : {}),
      ...(args.onToken ? { onToken: args.onToken } : {}),
      ...(args.onAgentflowEvent ? { onEvent: args.onAgentflowEvent as (name: string, data: unknown) => void } : {}),
      ...(args.onToolStart ? { onToolStart: args.onToolStart } : {}),
      runSubflow: subflowRunner({ chatflow: args.chatflow, chatId: args.chatId, sessionId: args.sessionId }),
    }),
  );
  return {
    text: turn.text,
    usedTools: turn.usedTools,
    ...(usage ? { usage } : {}),
    agentflow: {
      executionId: turn.executionId,
      agentFlowExecutedData: turn.executedData,
      ...(turn.action ? { action: turn.action } : {}),
    },
  };
}

/**
 * Continues an agentflow run this process took over after the process running it died
 * (lib/services/agentflow-recovery.ts) to its end or its next Human Input, and stores its answer
 * under the job that started it (a retry of that job answers from it).
 */
export async function continueTakenOverRun(job: PredictionJob, run: Execution): Promise<PredictionResult> {
  const prepared = await predictionRuns.prepare(job);
  return executePrediction({
    ...prepared,
    chatId: job.chatId,
    sessionId: job.sessionId,
    chatType: job.chatType,
    ...(run.runId ? { runId: run.runId } : {}),
    takenOver: run,
  });
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
  const prepared = await prepareRun(await loadChatflowVersion(args.chatflowId, args.version), args.body);
  const sessionId = `test-${randomUUID()}`;
  const result = await executePrediction({
    ...prepared,
    chatId: sessionId,
    sessionId,
    chatType: "INTERNAL",
    detached: true,
    ...(args.signal ? { signal: args.signal } : {}),
    ...(args.onToolStart ? { onToolStart: args.onToolStart } : {}),
  });
  return { ...result, chatflowVersion: prepared.chatflow.version };
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

/** An answer's usage as the prediction answers it: tokens, `estimated` when they were, and the cost stored. */
function answerUsage(usage: RunUsage, costUsd: number | null | undefined): PredictionResult["usage"] {
  return {
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    ...(usage.estimated ? { estimated: true } : {}),
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
}

/** An agentflow's progress event, by name. */
function isAgentflowEvent(name: string): name is AgentflowEventName {
  return (AGENTFLOW_EVENTS as readonly string[]).includes(name);
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
