import { AppError } from "@/common/errors";
import type { PredictionBody } from "@/common/schemas/prediction";
import type { TriggerRunDto } from "@/common/schemas/triggers";
import type { Chatflow, TriggerRun } from "../db/generated/client";
import { deleteTriggerRun, finishTriggerRun, findTriggerRunById, insertTriggerRun } from "../db/queries/triggers";
import { log } from "../log";
import { getChatflowForRun } from "./chatflows";
import { chatflowAtVersion } from "./chatflow-versions";
import { type PredictionResult, startTriggeredPrediction } from "./predictions";
import { holdTriggerRunLease, triggerRunLeaseFromNow } from "./trigger-run-leases";

/**
 * Runs that webhooks and schedules start: always the flow's published version, one TriggerRun row
 * each (running → succeeded with the answer, or failed with the error), so an asynchronous webhook
 * call can be polled and a schedule shows its last result. A run is leased to the process waiting on
 * it: one whose process died is closed as failed, saying so (lib/services/trigger-run-leases.ts).
 */

/**
 * A flow's published version, for a trigger; 404 in plain words when the flow is unknown or was
 * never published (a trigger never runs a draft).
 */
export async function publishedFlowForTrigger(chatflowId: string, what: string): Promise<Chatflow> {
  let row: Chatflow;
  try {
    row = await getChatflowForRun(chatflowId);
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found")
      throw new AppError("not_found", `No ${what} for flow ${chatflowId}: the flow does not exist.`);
    throw err;
  }
  if (row.publishedVersion === null)
    throw new AppError(
      "not_found",
      `The ${what} of flow ${chatflowId} is not available: the flow has no published version (publish one first).`,
    );
  return chatflowAtVersion(row, "published");
}

export interface StartedTriggerRun {
  run: TriggerRun;
  /** Settles when the run is finished and recorded: the answer, or the error it failed with. */
  done: Promise<PredictionResult>;
}

/**
 * Starts a run of `chatflow` (at its published version) with `body`, recorded as a TriggerRun. A
 * bad input the run refuses at once (in this process) is thrown before any row is written.
 */
export async function startTriggerRun(args: {
  chatflow: Chatflow;
  body: PredictionBody;
  source: "webhook" | "schedule";
  scheduleId?: string;
  /** The cron time a schedule's run is for. */
  tickAt?: Date;
  requestId?: string;
  here?: boolean;
}): Promise<StartedTriggerRun> {
  // The row first: a schedule's tick delivered twice finds its row taken (unique scheduleId + tickAt).
  let run: TriggerRun;
  try {
    run = await insertTriggerRun({
      data: {
        chatflowId: args.chatflow.id,
        source: args.source,
        ...(args.scheduleId ? { scheduleId: args.scheduleId } : {}),
        ...(args.tickAt ? { tickAt: args.tickAt } : {}),
        leaseUntil: triggerRunLeaseFromNow(),
      },
    });
  } catch (err) {
    if ((err as { code?: unknown }).code === "P2002")
      throw new AppError("conflict", "This tick of the schedule already ran.", { details: [{ reason: "tick_taken" }] });
    throw err;
  }
  let started: Awaited<ReturnType<typeof startTriggeredPrediction>>;
  try {
    started = await startTriggeredPrediction({
      chatflow: args.chatflow,
      body: args.body,
      ...(args.requestId ? { requestId: args.requestId } : {}),
      ...(args.here ? { here: true } : {}),
    });
  } catch (err) {
    // Refused before it ran: a webhook call that is a 4xx leaves nothing; a tick keeps its failure.
    if (args.source === "webhook") await deleteTriggerRun({ id: run.id }).catch(() => {});
    else await finishTriggerRun({ id: run.id, data: { status: "failed", error: messageOf(err) } }).catch(() => {});
    throw err;
  }
  // The lease is held while this process waits on the run: if it dies, the run is closed as abandoned.
  const done = holdTriggerRunLease(run.id, started.execute()).then(
    async (answer) => {
      await finishTriggerRun({
        id: run.id,
        data: {
          status: "succeeded",
          // A run closed as abandoned (its lease ran out while this process stalled) that still finished.
          error: null,
          answer: JSON.parse(JSON.stringify(answer)),
          executionId: answer.executionId ?? null,
          chatMessageId: answer.chatMessageId || null,
        },
      });
      return answer;
    },
    async (err: unknown) => {
      await finishTriggerRun({ id: run.id, data: { status: "failed", error: messageOf(err) } }).catch((e) =>
        log.warn({ err: String(e), runId: run.id }, "could not record a failed trigger run"),
      );
      throw err;
    },
  );
  return { run, done };
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2000);

/** Whether an error is a schedule's tick found already run (startTriggerRun). */
export function isTickTaken(err: unknown): boolean {
  return err instanceof AppError && err.code === "conflict" && JSON.stringify(err.details ?? "").includes("tick_taken");
}

export function toTriggerRunDto(run: TriggerRun): TriggerRunDto {
  return {
    id: run.id,
    chatflowId: run.chatflowId,
    source: run.source === "schedule" ? "schedule" : "webhook",
    scheduleId: run.scheduleId,
    status: run.status === "succeeded" || run.status === "failed" ? run.status : "running",
    ...(run.answer !== null ? { answer: run.answer } : {}),
    executionId: run.executionId,
    chatMessageId: run.chatMessageId,
    error: run.error,
    tickAt: run.tickAt?.toISOString() ?? null,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

/**
 * GET /api/v1/trigger-runs/{id}: a run's status and answer. The id is the capability (a random UUID
 * answered only to whoever started the run), as the prediction's answer was theirs to read.
 */
export async function getTriggerRun(id: string): Promise<TriggerRunDto> {
  const run = await findTriggerRunById({ id });
  if (!run) throw new AppError("not_found", `Run ${id} not found.`);
  return toTriggerRunDto(run);
}
