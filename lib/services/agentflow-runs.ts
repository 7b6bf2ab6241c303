import { AppError } from "@/common/errors";
import type { HumanInputAction } from "@/common/schemas/prediction-stream";
import type { PredictionBody } from "@/common/schemas/prediction";
import type { BuiltAgentflow } from "../agentflow/build";
import { type ExecutedNode, type ExecutionSnapshot, runAgentflow } from "../agentflow/engine";
import { initialPosition, type Position, readPosition } from "../agentflow/position";
import type { Chatflow, Execution } from "../db/generated/client";
import {
  claimPausedExecution,
  expirePausedExecutions,
  findLatestExecutionOfChat,
  findLatestSummariesOfChat,
  insertExecution,
  renewExecutionLease,
  saveExecution,
} from "../db/queries/executions";
import type { ChatType } from "../db/generated/client";
import { getEnv } from "../env";
import type { HistoryMessage, ToolStart, UsedTool } from "../flow/types";
import type { MemorySummary, RunSubflow } from "../agentflow/types";
import { allSteps } from "@/common/agentflow/graph";
import type { ModelTokens } from "../usage/prices";
import { costOf } from "../usage/prices";
import { pricesInForce } from "./usage";
import { variableValues } from "./variables";

/**
 * Agentflow runs as executions: a new run gets an Execution row, a resume (`humanInput`) continues
 * the chat's paused one from its stored position (in whichever process), and the engine saves the
 * row after every node (lib/agentflow/engine.ts).
 */

/** The most nodes one run may take, loops included (a Loop's own cap comes first). */
export const MAX_STEPS_PER_RUN = 200;

/** When a lease taken now runs out (AGENTFLOW_RUN_LEASE_SECONDS). */
export function leaseFromNow(): Date {
  return new Date(Date.now() + getEnv().AGENTFLOW_RUN_LEASE_SECONDS * 1000);
}

function pausedRunTtlHours(): number {
  return getEnv().AGENTFLOW_PAUSED_RUN_TTL_HOURS;
}

/** When a run that pauses now expires (AGENTFLOW_PAUSED_RUN_TTL_HOURS). */
export function pausedRunExpiry(): Date {
  return new Date(Date.now() + pausedRunTtlHours() * 3_600_000);
}

/** Why an expired run is no longer resumable, as stored and as a resume's 409 says. */
function expiryReason(): string {
  const hours = pausedRunTtlHours();
  return `Expired: nobody answered its Human Input within ${hours} ${hours === 1 ? "hour" : "hours"} (AGENTFLOW_PAUSED_RUN_TTL_HOURS).`;
}

/** Marks paused runs past their expiry as expired (a resume, a list or a read does it first). */
export async function expireOverduePausedRuns(): Promise<void> {
  await expirePausedExecutions({ now: new Date(), error: expiryReason() });
}

/**
 * Step 2 of a resume (before any answer starts): the chat's paused run that waits at the named node.
 * 404 when this chatflow has no run for the chat (unknown, or another chatflow's); 409 when its run
 * waits for nothing, or for another node, or waited past AGENTFLOW_PAUSED_RUN_TTL_HOURS (expired). Undefined for a request that resumes nothing.
 * A retried job that resumed the run gets it whatever its status (predictionRuns.execute goes on with it).
 */
export async function findPausedRun(
  chatflow: Chatflow,
  body: PredictionBody,
  /** The queued job asking: a retry of the job that resumed the run finds it running (its worker died). */
  runId?: string,
): Promise<Execution | undefined> {
  const answer = body.humanInput;
  if (!answer) return undefined;
  if (chatflow.type !== "AGENTFLOW")
    throw new AppError("bad_request", "humanInput: only an agentflow pauses for human input; this is a chatflow.");
  const chatId = body.chatId!;
  await expireOverduePausedRuns();
  const run = await findLatestExecutionOfChat({ chatflowId: chatflow.id, chatId });
  if (!run) throw new AppError("not_found", `No agentflow run of chat ${chatId} in chatflow ${chatflow.id}.`);
  if (run.status === "expired")
    throw new AppError(
      "conflict",
      `The run of chat ${chatId} can no longer be resumed: ${run.error ?? expiryReason()} Start a new run.`,
    );
  if (runId && run.runId === runId) return run;
  const waiting = readPosition(run.position)?.waiting;
  if (run.status !== "paused" || !waiting)
    throw new AppError("conflict", `The run of chat ${chatId} waits for no human input (it is ${run.status}).`);
  if (waiting !== answer.startNodeId)
    throw new AppError(
      "conflict",
      `The run of chat ${chatId} waits at node ${waiting}, not ${answer.startNodeId}: send humanInput.startNodeId "${waiting}".`,
    );
  return run;
}

export interface AgentflowTurn {
  flow: BuiltAgentflow;
  chatflow: Chatflow;
  chatId: string;
  sessionId: string;
  question: string;
  history: HistoryMessage[];
  body: PredictionBody;
  /** Where the request came from: stored with a new run, so a run taken over after a crash answers as the same kind. */
  chatType?: ChatType;
  /** The paused run this request resumes (findPausedRun). */
  paused?: Execution;
  /**
   * A run this process took over after the process running it died (lib/services/agentflow-recovery.ts:
   * an embedded server's or a worker's sweep, or a retried queue job): it goes on from its last
   * finished node instead of starting over.
   */
  takenOver?: Execution;
  /** The queue job (or in-process run) running this turn: stored with the run, so a retry of the job finds it. */
  runId?: string;
  maxSteps?: number;
  signal?: AbortSignal;
  onToken?(token: string): void;
  onEvent?(name: string, data: unknown): void;
  onToolStart?(start: ToolStart): void;
  /** Runs another flow for an Execute Flow node (lib/services/subflows.ts). */
  runSubflow?: RunSubflow;
}

export interface AgentflowTurnResult {
  text: string;
  executionId: string;
  executedData: ExecutedNode[];
  action?: HumanInputAction;
  usedTools: UsedTool[];
}

/**
 * The conversation summaries a new run starts with: those of the chat's latest run, when a step of
 * the flow keeps one (LLM or Agent with summary memory). A summary that no longer matches the
 * history is made again by its step, so a stale one costs a model call, never a wrong memory.
 */
async function carriedSummaries(turn: AgentflowTurn): Promise<Record<string, MemorySummary> | undefined> {
  const ids = [...allSteps(turn.flow.graph).keys()];
  if (!ids.some((id) => turn.flow.stepOf(id).summarisesMemory)) return undefined;
  const found = await findLatestSummariesOfChat({ chatflowId: turn.chatflow.id, chatId: turn.chatId });
  return found && typeof found === "object" && !Array.isArray(found)
    ? (found as Record<string, MemorySummary>)
    : undefined;
}

/** Prices a step's model usage at the prices in force, read once per run and only when a step used a model. */
function usagePricer(): (models: ModelTokens[]) => Promise<number | null> {
  let prices: ReturnType<typeof pricesInForce> | undefined;
  return async (models) => costOf(models, await (prices ??= pricesInForce()));
}

/** Starts a run (a new execution), or takes the paused one for this resume (409 when another took it). */
async function startingPoint(turn: AgentflowTurn): Promise<Execution> {
  if (turn.takenOver) return turn.takenOver;
  if (turn.paused) {
    const claimed = await claimPausedExecution({
      id: turn.paused.id,
      leaseUntil: leaseFromNow(),
      ...(turn.runId ? { runId: turn.runId } : {}),
    });
    if (!claimed) throw new AppError("conflict", `The run of chat ${turn.chatId} was already resumed, or has expired.`);
    return turn.paused;
  }
  const summaries = await carriedSummaries(turn);
  return insertExecution({
    data: {
      chatflowId: turn.chatflow.id,
      version: turn.chatflow.version,
      sessionId: turn.sessionId,
      chatId: turn.chatId,
      position: {
        ...initialPosition(turn.flow.startId, turn.question, turn.body.form),
        ...(summaries ? { summaries } : {}),
      } as never,
      ...(turn.chatType ? { chatType: turn.chatType } : {}),
      ...(turn.runId ? { runId: turn.runId } : {}),
      leaseUntil: leaseFromNow(),
    },
  });
}

function toRow(s: ExecutionSnapshot) {
  const done = s.status === "finished" || s.status === "error" || s.status === "timeout";
  return {
    // A running run keeps its lease; a paused one waits until its expiry, holding none.
    leaseUntil: s.status === "running" ? leaseFromNow() : null,
    expiresAt: s.status === "paused" ? pausedRunExpiry() : null,
    status: s.status,
    state: s.state as never,
    position: s.position as never,
    executedData: s.executedData as never,
    ...(s.action !== undefined ? { action: s.action as never } : {}),
    ...(s.error !== undefined ? { error: s.error } : {}),
    ...(done ? { finishedAt: new Date() } : {}),
  };
}

/**
 * Runs (or continues) a chat's agentflow run to its end or its next human input, saving it after
 * every node and holding its lease (AGENTFLOW_RUN_LEASE_SECONDS) while it runs.
 */
export async function runAgentflowTurn(turn: AgentflowTurn): Promise<AgentflowTurnResult> {
  const execution = await startingPoint(turn);
  const position = readPosition(execution.position);
  if (!position) throw new AppError("internal", `Execution ${execution.id} has no readable position.`);
  // The lease is renewed while the run goes on, also through a step that takes longer than the lease.
  const release = holdLease(execution.id);
  try {
    return await runFrom(turn, execution, position);
  } finally {
    release();
  }
}

/**
 * Renews the lease of a run this process holds every third of AGENTFLOW_RUN_LEASE_SECONDS until the
 * answered function is called: from a takeover on (loading the pipeline and building the flow may
 * take longer than a short lease), so no other process, nor this one's next sweep, takes it meanwhile.
 */
export function holdLease(id: string): () => void {
  const renew = setInterval(
    () => void renewExecutionLease({ id, leaseUntil: leaseFromNow() }).catch(() => {}),
    (getEnv().AGENTFLOW_RUN_LEASE_SECONDS * 1000) / 3,
  );
  renew.unref();
  heldHere.set(id, (heldHere.get(id) ?? 0) + 1);
  return () => {
    clearInterval(renew);
    const n = (heldHere.get(id) ?? 1) - 1;
    if (n > 0) heldHere.set(id, n);
    else heldHere.delete(id);
  };
}

/**
 * Runs this process holds (holdLease), by how many holds: its own sweep never takes one over, even
 * when a busy event loop let the lease run out before its renewal landed.
 */
const heldHere = new Map<string, number>();

/** Whether this process runs (or is about to continue) the run. */
export function runHeldHere(id: string): boolean {
  return heldHere.has(id);
}

async function runFrom(turn: AgentflowTurn, execution: Execution, position: Position): Promise<AgentflowTurnResult> {
  const result = await runAgentflow({
    graph: turn.flow.graph,
    stepOf: turn.flow.stepOf,
    ids: { chatflowId: turn.chatflow.id, chatId: turn.chatId, sessionId: turn.sessionId },
    // A resume goes on with the question its run began with.
    question: position.question ?? turn.question,
    history: turn.history,
    ...((turn.body.form ?? position.form) ? { form: turn.body.form ?? position.form } : {}),
    ...(turn.body.humanInput ? { humanInput: turn.body.humanInput } : {}),
    start: {
      state: (execution.state ?? {}) as Record<string, unknown>,
      position,
      executedData: (Array.isArray(execution.executedData) ? execution.executedData : []) as ExecutedNode[],
    },
    maxSteps: turn.maxSteps ?? MAX_STEPS_PER_RUN,
    save: async (snapshot) => {
      if (!(await saveExecution({ id: execution.id, data: toRow(snapshot) })))
        throw new AppError(
          "conflict",
          `Agentflow run ${execution.id} was ended by another process while this one ran it (GET /api/v1/executions/${execution.id}).`,
        );
    },
    ...(turn.signal ? { signal: turn.signal } : {}),
    ...(turn.onToken ? { onToken: turn.onToken } : {}),
    ...(turn.onEvent ? { onEvent: turn.onEvent } : {}),
    ...(turn.onToolStart ? { onToolStart: turn.onToolStart } : {}),
    ...(turn.runSubflow ? { runSubflow: turn.runSubflow } : {}),
    priceUsage: usagePricer(),
    vars: await variableValues(),
  });
  return {
    text: result.text,
    executionId: execution.id,
    executedData: result.executedData,
    usedTools: result.usedTools,
    ...(result.action ? { action: result.action } : {}),
  };
}
