/**
 * The lib/jobs contract on BullMQ (queue mode): `add` is addBulk with the definition's attempts and
 * exponential backoff; workers run the definition's handler; `onFailed` runs once, after the last
 * attempt or an error not worth retrying, and also for a job BullMQ fails without running it: in
 * BullMQ 6 a job that stalled more than maxStalledCount times (its workers died) goes back to wait
 * with a deferred failure, and the next worker to take it fails it at once and emits `failed` on
 * that Worker, without calling the processor. Progress is whatever the handler writes to the database.
 */
import { type Job, UnrecoverableError, Worker } from "bullmq";
import { getEnv } from "../env";
import { AppError } from "@/common/errors";
import type { JobDefinition, JobQueue } from "../jobs/types";
import { addJobs, producer } from "./client";
import { QUEUE_NAMES, QUEUE_PREFIX, type QueueName } from "./names";
import { newWorkerConnection, trackWorker } from "./worker";

/** The BullMQ queue of a job definition (the names are part of what runs in Redis: see names.ts). */
const QUEUE_OF_DEFINITION: Record<string, QueueName> = {
  "domain-analysis": QUEUE_NAMES.domains,
  "chatflow-test-run": QUEUE_NAMES.testRuns,
  "schedule-tick": QUEUE_NAMES.schedules,
};

export function queueOfDefinition(def: { name: string }): QueueName {
  const name = QUEUE_OF_DEFINITION[def.name];
  if (!name) throw new Error(`No queue name for job definition "${def.name}" (lib/queue/job-queue.ts)`);
  return name;
}

export function createBullJobQueue<T>(def: JobDefinition<T>): JobQueue<T> {
  const name = queueOfDefinition(def);
  let last = { waiting: 0, delayed: 0, active: 0 };
  const refresh = async () => {
    const c = await producer(name).getJobCounts("waiting", "delayed", "active", "prioritized");
    last = { waiting: (c.waiting ?? 0) + (c.prioritized ?? 0), delayed: c.delayed ?? 0, active: c.active ?? 0 };
    return last;
  };
  return {
    name: def.name,
    durable: true,
    async add(items) {
      const attempts = Math.max(1, def.attempts ?? 3);
      await addJobs(
        name,
        items.map((data) => ({
          data,
          opts: { attempts, backoff: { type: "exponential", delay: Math.max(0, def.backoffMs ?? 1000) } },
        })),
      );
    },
    /** Last known counts (BullMQ counts are asynchronous; each call refreshes them for the next). */
    counts() {
      void refresh().catch(() => {});
      return last;
    },
    async drained() {
      for (;;) {
        const c = await refresh().catch(() => undefined);
        if (c && c.waiting + c.delayed + c.active === 0) return;
        await new Promise((r) => setTimeout(r, 200));
      }
    },
  };
}

/** Runs a job definition's jobs in this (worker) process. */
export function registerDefinition<T>(def: JobDefinition<T>, concurrency?: number): Worker {
  const attempts = Math.max(1, def.attempts ?? 3);
  /** Jobs whose final failure the processor already handed to onFailed (the `failed` event skips them). */
  const handled = new Set<string>();
  const runOnFailed = (data: T, error: unknown) =>
    Promise.resolve(def.onFailed?.(data, error)).catch((err) =>
      console.error(`[jobs:${def.name}] onFailed threw:`, err),
    );
  const worker = new Worker<T>(
    queueOfDefinition(def),
    async (job: Job<T>) => {
      const attempt = job.attemptsMade + 1;
      try {
        await def.handler(job.data, { attempt, attempts, ...(job.id ? { jobId: job.id } : {}) });
      } catch (error) {
        const retry = attempt < attempts && (def.isRetryable?.(error) ?? true);
        if (retry) throw error instanceof Error ? error : new Error(String(error));
        await runOnFailed(job.data, error);
        if (job.id) handled.add(job.id);
        throw new UnrecoverableError(error instanceof Error ? error.message : String(error));
      }
    },
    {
      connection: newWorkerConnection(),
      prefix: QUEUE_PREFIX,
      concurrency: concurrency ?? def.concurrency ?? 4,
      // As for request jobs (worker.ts): a dead worker's job is taken over after the lock, once.
      lockDuration: getEnv().JOB_LOCK_MS,
      stalledInterval: getEnv().JOB_LOCK_MS,
      maxStalledCount: 1,
    },
  );
  // Final failures the processor never saw: a job that stalled too often (its workers died) is
  // failed by the next worker that takes it (BullMQ 6 "deferred failure"), emitting `failed` here only.
  worker.on("failed", (job, err) => {
    if (!job?.id || handled.delete(job.id)) return;
    const final = err?.name === "UnrecoverableError" || job.attemptsMade >= attempts;
    if (!final) return;
    const stalled = /stalled/i.test(err?.message ?? "");
    void runOnFailed(
      job.data,
      new AppError(
        "worker_lost",
        stalled
          ? "The job did not finish: its worker stopped more often than retries allow."
          : `The job failed: ${err?.message ?? "unknown error"}`,
      ),
    );
  });
  trackWorker(worker, `jobs:${def.name}`);
  return worker;
}
