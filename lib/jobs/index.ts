import { createInProcessQueue } from "./in-process-queue";
import type { JobDefinition, JobQueue } from "./types";
import { processState } from "../state";
import { getEnv } from "../env";
import { createBullJobQueue } from "../queue/job-queue";
import { inProcessTransport, queueTransport, type RunTransport } from "./transport";

export type { JobContext, JobDefinition, JobQueue } from "./types";
export { createInProcessQueue } from "./in-process-queue";
export type { RunContext, RunKind, RunTransport, StartedRun } from "./transport";
export { runOnWorker } from "./transport";

/**
 * Where this process's runs and jobs execute, read here (and only here) from the configuration:
 * `embedded`, in this process; or `queue` (MODE=queue), on queue workers through the Redis at
 * `redisUrl`. Services never read MODE: they start runs on runTransport(), queue jobs on getQueue(),
 * and ask workExecutesHere() or a queue's `durable`; reports (health, the queue view) show this.
 */
export type JobsPlacement = { mode: "embedded" } | { mode: "queue"; redisUrl: string };

export function jobsPlacement(): JobsPlacement {
  const env = getEnv();
  if (env.MODE !== "queue") return { mode: "embedded" };
  // lib/env.ts refuses MODE=queue without REDIS_URL; this only keeps the type honest.
  if (!env.REDIS_URL) throw new Error("MODE=queue needs REDIS_URL");
  return { mode: "queue", redisUrl: env.REDIS_URL };
}

/** Where runs (predictions, upserts) do their work: in this process, or on queue workers. */
export function runTransport(): RunTransport {
  return jobsPlacement().mode === "queue" ? queueTransport : inProcessTransport;
}

/**
 * Whether the runs and jobs this process starts also execute in it, so that whatever they store this
 * process stored (false when queue workers execute them).
 */
export function workExecutesHere(): boolean {
  return jobsPlacement().mode === "embedded";
}

// One queue per name per process ("jobQueues" in lib/state/catalogue.ts), shared across Next's dev reloads.
const queues = () => processState("jobQueues", () => new Map<string, JobQueue<unknown>>());

/** This process's in-process queues created so far (the admin queue view in embedded mode). */
export function listJobQueues(): JobQueue<unknown>[] {
  return [...queues().values()];
}

/**
 * The queue for a job definition, created on first use: the in-process runner, or in queue mode
 * BullMQ, whose workers (`npm run worker`) run the same definitions.
 */
export function getQueue<T>(def: JobDefinition<T>): JobQueue<T> {
  let queue = queues().get(def.name);
  if (!queue) {
    const onWorkers = jobsPlacement().mode === "queue";
    queue = (onWorkers ? createBullJobQueue(def) : createInProcessQueue(def)) as JobQueue<unknown>;
    queues().set(def.name, queue);
  }
  return queue as JobQueue<T>;
}
