import { setTimeout as sleep } from "node:timers/promises";
import { AppError } from "@/common/errors";
import { findExecutionById, findExecutionOfRun, takeOverExecution } from "../db/queries/executions";
import type { Execution } from "../db/generated/client";
import { getEnv } from "../env";
import { log } from "../log";
import { leaseFromNow } from "./agentflow-runs";

/**
 * Taking over an agentflow run whose process died (see ./agentflow-recovery for who does it and
 * when): the one atomic claim with its cap, and a retried queue job's wait for its run. Kept apart
 * from the sweeps, which load the prediction pipeline, so the pipeline can use these without a cycle.
 */

/** Why a run is not taken over again: its error, naming the cap. */
export function takeoverCapReason(max = getEnv().AGENTFLOW_MAX_TAKEOVERS): string {
  return (
    `The processes running this run stopped ${max + 1} times before it finished; it was taken over ` +
    `${max} ${max === 1 ? "time" : "times"} already (AGENTFLOW_MAX_TAKEOVERS=${max}) and is not taken over again. ` +
    "A step of this run may be stopping the process that runs it."
  );
}

/**
 * Takes over a running run whose lease ran out: "taken" (this process holds it now, one takeover
 * more), "capped" (taken over AGENTFLOW_MAX_TAKEOVERS times already: marked error naming the cap), or
 * "held" (its lease is still held, it is no longer running, or another process took it first).
 */
export async function takeOverRun(id: string): Promise<"taken" | "capped" | "held"> {
  const max = getEnv().AGENTFLOW_MAX_TAKEOVERS;
  const outcome = await takeOverExecution({
    id,
    now: new Date(),
    leaseUntil: leaseFromNow(),
    maxTakeovers: max,
    cappedError: takeoverCapReason(max),
  });
  if (outcome === "capped") log.warn({ executionId: id, maxTakeovers: max }, "agentflow run failed: takeover cap");
  return outcome;
}

/**
 * A retried queue job's agentflow run (its first worker died): waits while the run's lease is held
 * (the dead worker's lease runs out; a live one finishes), then takes it over. Answers `take`, the run
 * this process holds now; `ended`, the run as it ended meanwhile (another process continued it, or it
 * reached the takeover cap); or undefined when the job had not started a run.
 */
export async function awaitRunOfRetriedJob(
  runId: string,
  signal?: AbortSignal,
): Promise<{ take: Execution } | { ended: Execution } | undefined> {
  const pollMs = Math.min(1000, Math.max(100, getEnv().AGENTFLOW_RUN_LEASE_SECONDS * 250));
  for (;;) {
    const row = await findExecutionOfRun({ runId });
    if (!row) return undefined;
    if (row.status !== "running") return { ended: row };
    const outcome = await takeOverRun(row.id);
    const now = await findExecutionById({ id: row.id });
    if (!now) return undefined;
    if (outcome === "taken") {
      log.info(
        { executionId: row.id, jobId: runId, takeovers: now.takeovers },
        "retried job takes over its agentflow run",
      );
      return { take: now };
    }
    if (now.status !== "running") return { ended: now };
    signal?.throwIfAborted();
    await sleep(pollMs, undefined, signal ? { signal } : {});
  }
}

/** What a retried job answers when its run ended in another process and left no stored answer. */
export function endedRunError(run: Execution): AppError {
  if (run.status === "error" || run.status === "timeout")
    return new AppError("internal", `Agentflow run ${run.id} failed: ${run.error ?? run.status}`);
  return new AppError(
    "conflict",
    `Agentflow run ${run.id} is ${run.status}: it was continued by another process (GET /api/v1/executions/${run.id}).`,
  );
}
