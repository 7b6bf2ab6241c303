import { AppError } from "@/common/errors";
import type { HumanInputAction } from "@/common/schemas/prediction-stream";
import type { PredictionBody } from "@/common/schemas/prediction";
import type { BuiltAgentflow } from "../agentflow/build";
import { type ExecutedNode, type ExecutionSnapshot, runAgentflow } from "../agentflow/engine";
import { initialPosition, readPosition } from "../agentflow/position";
import type { Chatflow, Execution } from "../db/generated/client";
import {
  claimPausedExecution,
  findLatestExecutionOfChat,
  insertExecution,
  saveExecution,
} from "../db/queries/executions";
import type { HistoryMessage, ToolStart, UsedTool } from "../flow/types";
import type { RunSubflow } from "../agentflow/types";
import { variableValues } from "./variables";

/**
 * Agentflow runs as executions: a new run gets an Execution row, a resume (`humanInput`) continues
 * the chat's paused one from its stored position (in whichever process), and the engine saves the
 * row after every node (lib/agentflow/engine.ts).
 */

/** The most nodes one run may take, loops included (a Loop's own cap comes first). */
export const MAX_STEPS_PER_RUN = 200;

/**
 * Step 2 of a resume (before any answer starts): the chat's paused run that waits at the named node.
 * 404 when this chatflow has no run for the chat (unknown, or another chatflow's); 409 when its run
 * waits for nothing, or for another node. Undefined for a request that resumes nothing.
 */
export async function findPausedRun(chatflow: Chatflow, body: PredictionBody): Promise<Execution | undefined> {
  const answer = body.humanInput;
  if (!answer) return undefined;
  if (chatflow.type !== "AGENTFLOW")
    throw new AppError("bad_request", "humanInput: only an agentflow pauses for human input; this is a chatflow.");
  const chatId = body.chatId!;
  const run = await findLatestExecutionOfChat({ chatflowId: chatflow.id, chatId });
  if (!run) throw new AppError("not_found", `No agentflow run of chat ${chatId} in chatflow ${chatflow.id}.`);
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
  /** The paused run this request resumes (findPausedRun). */
  paused?: Execution;
  /**
   * A retried job (its first worker died): the chat's run it left `running` goes on from its last
   * finished node instead of starting over.
   */
  interrupted?: boolean;
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

/** Starts a run (a new execution), or takes the paused one for this resume (409 when another took it). */
async function startingPoint(turn: AgentflowTurn): Promise<Execution> {
  if (turn.paused) {
    if (!(await claimPausedExecution({ id: turn.paused.id })))
      throw new AppError("conflict", `The run of chat ${turn.chatId} was already resumed.`);
    return turn.paused;
  }
  if (turn.interrupted) {
    const left = await findLatestExecutionOfChat({ chatflowId: turn.chatflow.id, chatId: turn.chatId });
    if (left?.status === "running" && left.version === turn.chatflow.version) return left;
  }
  return insertExecution({
    data: {
      chatflowId: turn.chatflow.id,
      version: turn.chatflow.version,
      sessionId: turn.sessionId,
      chatId: turn.chatId,
      position: initialPosition(turn.flow.startId, turn.question) as never,
    },
  });
}

function toRow(s: ExecutionSnapshot) {
  const done = s.status === "finished" || s.status === "error" || s.status === "timeout";
  return {
    status: s.status,
    state: s.state as never,
    position: s.position as never,
    executedData: s.executedData as never,
    ...(s.action !== undefined ? { action: s.action as never } : {}),
    ...(s.error !== undefined ? { error: s.error } : {}),
    ...(done ? { finishedAt: new Date() } : {}),
  };
}

/** Runs (or continues) a chat's agentflow run to its end or its next human input, saving it after every node. */
export async function runAgentflowTurn(turn: AgentflowTurn): Promise<AgentflowTurnResult> {
  const execution = await startingPoint(turn);
  const position = readPosition(execution.position);
  if (!position) throw new AppError("internal", `Execution ${execution.id} has no readable position.`);
  const result = await runAgentflow({
    graph: turn.flow.graph,
    stepOf: turn.flow.stepOf,
    ids: { chatflowId: turn.chatflow.id, chatId: turn.chatId, sessionId: turn.sessionId },
    // A resume goes on with the question its run began with.
    question: position.question ?? turn.question,
    history: turn.history,
    ...(turn.body.form ? { form: turn.body.form } : {}),
    ...(turn.body.humanInput ? { humanInput: turn.body.humanInput } : {}),
    start: {
      state: (execution.state ?? {}) as Record<string, unknown>,
      position,
      executedData: (Array.isArray(execution.executedData) ? execution.executedData : []) as ExecutedNode[],
    },
    maxSteps: turn.maxSteps ?? MAX_STEPS_PER_RUN,
    save: async (snapshot) => {
      await saveExecution({ id: execution.id, data: toRow(snapshot) });
    },
    ...(turn.signal ? { signal: turn.signal } : {}),
    ...(turn.onToken ? { onToken: turn.onToken } : {}),
    ...(turn.onEvent ? { onEvent: turn.onEvent } : {}),
    ...(turn.onToolStart ? { onToolStart: turn.onToolStart } : {}),
    ...(turn.runSubflow ? { runSubflow: turn.runSubflow } : {}),
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
