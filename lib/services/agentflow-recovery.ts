import { readPosition } from "../agentflow/position";
import {
  failRunningExecution,
  findAbandonedExecutionIds,
  findExecutionById,
  returnToPaused,
} from "../db/queries/executions";
import type { Execution } from "../db/generated/client";
import { getEnv } from "../env";
import { log } from "../log";
import { holdLease, pausedRunExpiry, runHeldHere } from "./agentflow-runs";
import { takeOverRun } from "./agentflow-takeover";
import type { PredictionJob } from "./predictions";

// The claim and the retried job's wait live in ./agentflow-takeover (predictions imports them; this
// module loads predictions when it continues a run): re-exported for the callers of this one.
export { takeOverRun, takeoverCapReason } from "./agentflow-takeover";

/**
 * Agentflow runs left behind by a process that died (SIGKILL, a crash, a lost machine): a running run
 * whose lease (AGENTFLOW_RUN_LEASE_SECONDS) ran out. Another process takes it over (one process gets
 * it, counted in the run's `takeovers`) and continues it from its last finished step through the
 * prediction pipeline: finished steps are not run again and a step's finished tool and HTTP calls are
 * read from its journal, not made again. A run that cannot go on is marked failed with the reason; one
 * taken over AGENTFLOW_MAX_TAKEOVERS times already is marked failed naming that cap instead (a run
 * that crashes every process running it is not handed on for ever).
 *
 * Who takes over: an embedded server's sweep (at start, then every half lease). In queue mode, the
 * retry of the job whose worker died (predictionRuns.execute: it waits for the lease to run out, so
 * the caller still gets the answer), and a sweep in every worker process for runs no job retries
 * (their job failed after stalling twice, or was lost): it takes only runs whose lease ran out longer
 * ago than a retry needs to come (three job locks, JOB_LOCK_MS: the lock runs out, then a stalled
 * check), so a retry normally comes first.
 */

/** Runs looked at per sweep; the next sweep takes the rest. */
const SWEEP_BATCH = 20;

/** The prediction a run was started by, rebuilt from what its row keeps (question, form, ids, chat type). */
function jobOf(row: Execution, question: string, form?: Record<string, unknown>): PredictionJob {
  return {
    chatflowId: row.chatflowId,
    version: row.version,
    body: {
      question,
      chatId: row.chatId,
      ...(form ? { form } : {}),
      ...(row.sessionId !== row.chatId ? { overrideConfig: { sessionId: row.sessionId } } : {}),
    },
    chatId: row.chatId,
    sessionId: row.sessionId,
    chatType: row.chatType ?? "EXTERNAL",
    stream: false,
  };
}

async function giveUp(id: string, why: string): Promise<void> {
  const error = `The server running this run stopped, and the run could not go on: ${why}`;
  if (await failRunningExecution({ id, error }))
    log.warn({ executionId: id, reason: why }, "agentflow run failed after takeover");
}

/** Continues one run this process took over (takeOverRun), to its end (or its next Human Input). */
export async function continueAbandonedRun(id: string): Promise<void> {
  const row = await findExecutionById({ id });
  if (row?.status !== "running") return;
  const position = readPosition(row.position);
  if (!position) return giveUp(id, "its stored position is unreadable.");
  // Stopped while it resumed from Human Input: the answer was not kept, so it waits for one again.
  if (position.waiting) {
    await returnToPaused({ id, expiresAt: pausedRunExpiry() });
    return;
  }
  log.info(
    { executionId: id, step: position.ready[0], takeovers: row.takeovers },
    "taking over an agentflow run its process left",
  );
  try {
    // Loaded when a run is taken over, not at start: the server's start-up hook stays small.
    const { continueTakenOverRun } = await import("./predictions");
    await continueTakenOverRun(jobOf(row, position.question ?? "", position.form), row);
  } catch (err) {
    // A step that failed has stored the run as failed already; this covers what fails before the first step.
    await giveUp(id, err instanceof Error ? err.message : String(err));
  }
}

/**
 * One sweep: takes over the runs whose lease ran out at least `graceMs` ago and continues them in
 * the background. Answers the ids this process took (not those it marked failed at the cap).
 */
export async function takeOverAbandonedRuns(graceMs = 0): Promise<string[]> {
  const taken: string[] = [];
  for (const id of await findAbandonedExecutionIds({ now: new Date(Date.now() - graceMs), take: SWEEP_BATCH })) {
    // A run this process is running itself stays with it (its lease ran out while its loop was busy).
    if (runHeldHere(id) || (await takeOverRun(id)) !== "taken") continue;
    taken.push(id);
    // Held from the takeover on: loading the pipeline may take longer than a short lease.
    const release = holdLease(id);
    void continueAbandonedRun(id)
      .catch((err) => log.error({ executionId: id, err }, "continuing an abandoned agentflow run failed"))
      .finally(release);
  }
  return taken;
}

let sweeper: NodeJS.Timeout | undefined;

/**
 * Starts the sweeps, at once and then every half lease: in an embedded server (instrumentation.ts),
 * and in queue-mode worker processes (`worker`, server/worker.ts), where a run's lease must have run
 * out three job locks ago (a retry of its job comes first). An API process in queue mode runs none.
 */
export function startAbandonedRunRecovery(opts: { worker?: boolean } = {}): void {
  const env = getEnv();
  // MODE read here, not through lib/jobs (which loads BullMQ): the server's start-up hook stays small.
  if (sweeper || (env.MODE !== "embedded" && !opts.worker)) return;
  const graceMs = opts.worker ? 3 * env.JOB_LOCK_MS : 0;
  const sweep = () =>
    void takeOverAbandonedRuns(graceMs).catch((err) =>
      log.warn({ err }, "looking for abandoned agentflow runs failed"),
    );
  sweep();
  sweeper = setInterval(sweep, Math.max(1000, env.AGENTFLOW_RUN_LEASE_SECONDS * 500));
  sweeper.unref();
}
