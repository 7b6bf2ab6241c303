import { readPosition } from "../agentflow/position";
import {
  claimAbandonedExecution,
  failRunningExecution,
  findAbandonedExecutionIds,
  findExecutionById,
  returnToPaused,
} from "../db/queries/executions";
import type { Execution } from "../db/generated/client";
import { getEnv } from "../env";
import { log } from "../log";
import { leaseFromNow, pausedRunExpiry } from "./agentflow-runs";
import type { PredictionJob } from "./predictions";

/**
 * Agentflow runs left behind by a process that died (SIGKILL, a crash, a lost machine): a running run
 * whose lease (AGENTFLOW_RUN_LEASE_SECONDS) ran out. An embedded server looks for them when it starts
 * and then every half lease, takes each over (one process gets it) and continues it from its last
 * finished step through the same prediction pipeline a queue worker's retry uses: finished steps are
 * not run again and a step's finished tool and HTTP calls are read from its journal, not made again.
 * A run that cannot go on is marked failed with the reason. In queue mode the job's retry on another
 * worker does this instead (lib/services/predictions.ts, `interrupted`).
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

/** Continues one run this process took over, to its end (or its next Human Input). */
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
  log.info({ executionId: id, step: position.ready[0] }, "taking over an agentflow run its process left");
  try {
    // Loaded when a run is taken over, not at start: the server's start-up hook stays small.
    const { predictionRuns } = await import("./predictions");
    const prepared = await predictionRuns.prepare(jobOf(row, position.question ?? "", position.form));
    await predictionRuns.execute(prepared, { attempt: 2, emit: () => {} });
  } catch (err) {
    // A step that failed has stored the run as failed already; this covers what fails before the first step.
    await giveUp(id, err instanceof Error ? err.message : String(err));
  }
}

/**
 * One sweep: takes over the runs whose lease ran out and continues them in the background. Answers
 * the ids this process took.
 */
export async function takeOverAbandonedRuns(): Promise<string[]> {
  const now = new Date();
  const taken: string[] = [];
  for (const id of await findAbandonedExecutionIds({ now, take: SWEEP_BATCH })) {
    if (!(await claimAbandonedExecution({ id, now, leaseUntil: leaseFromNow() }))) continue;
    taken.push(id);
    void continueAbandonedRun(id).catch((err) =>
      log.error({ executionId: id, err }, "continuing an abandoned agentflow run failed"),
    );
  }
  return taken;
}

let sweeper: NodeJS.Timeout | undefined;

/** Starts the sweeps in an embedded server (instrumentation.ts): at once, then every half lease. */
export function startAbandonedRunRecovery(): void {
  const env = getEnv();
  if (env.MODE !== "embedded" || sweeper) return;
  const sweep = () =>
    void takeOverAbandonedRuns().catch((err) => log.warn({ err }, "looking for abandoned agentflow runs failed"));
  sweep();
  sweeper = setInterval(sweep, Math.max(1000, env.AGENTFLOW_RUN_LEASE_SECONDS * 500));
  sweeper.unref();
}
