import { failAbandonedTriggerRuns, renewTriggerRunLease } from "../db/queries/triggers";
import { getEnv } from "../env";
import { log } from "../log";

/**
 * Leases of webhook and schedule runs (TriggerRun), so none stays `running` after its process died.
 * The process that waits on a run (the API process of a webhook call, whichever process ticks a
 * schedule) renews the run's lease every third of AGENTFLOW_RUN_LEASE_SECONDS while it goes, as an
 * agentflow run's process does. API processes, in either mode, look for runs whose lease ran out at
 * start and every half lease, and mark them failed saying why: the answer of a run whose process died
 * was never recorded (an agentflow's own execution is taken over on its own: lib/services/agentflow-recovery.ts).
 */

const leaseMs = () => getEnv().AGENTFLOW_RUN_LEASE_SECONDS * 1000;

/** When a lease taken now runs out. */
export const triggerRunLeaseFromNow = () => new Date(Date.now() + leaseMs());

/** What a run closed as abandoned says. */
export const ABANDONED_TRIGGER_RUN =
  "Interrupted: the server running this run stopped (a restart or a crash) before it finished, so its answer was not recorded. Run it again (call the webhook again, or wait for the schedule's next tick); an agentflow's own execution may have been continued (see its executions).";

/** Renews the lease of run `runId` while `work` goes; answers `work`. */
export function holdTriggerRunLease<T>(runId: string, work: Promise<T>): Promise<T> {
  const timer = setInterval(
    () =>
      void renewTriggerRunLease({ id: runId, leaseUntil: triggerRunLeaseFromNow() }).catch((err) =>
        log.warn({ err: String(err), runId }, "could not renew a trigger run's lease"),
      ),
    Math.max(100, leaseMs() / 3),
  );
  timer.unref?.();
  return work.finally(() => clearInterval(timer));
}

/** One sweep: marks failed the running runs whose lease ran out (and runs from before leases older than one). */
export async function closeAbandonedTriggerRuns(now = new Date()): Promise<number> {
  const closed = await failAbandonedTriggerRuns({
    now,
    startedBefore: new Date(now.getTime() - leaseMs()),
    error: ABANDONED_TRIGGER_RUN,
  });
  if (closed) log.warn({ closed }, "closed webhook or schedule runs whose server stopped");
  return closed;
}

let sweeper: NodeJS.Timeout | undefined;

/** Starts the sweeps in an API process (instrumentation.ts): at once, then every half lease. */
export function startTriggerRunSweeps(): void {
  if (sweeper) return;
  const sweep = () =>
    void closeAbandonedTriggerRuns().catch((err) =>
      log.warn({ err: String(err) }, "looking for abandoned webhook and schedule runs failed"),
    );
  sweep();
  sweeper = setInterval(sweep, Math.max(1000, leaseMs() / 2));
  sweeper.unref();
}
