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
 * Where runs (predictions, upserts) do their work: in this process, or on queue workers with
 * MODE=queue. Chosen here, from the configuration, for every service.
 */
export function runTransport(): RunTransport {
  return getEnv().MODE === "queue" ? queueTransport : inProcessTransport;
}

// One queue per name per process ("jobQueues" in lib/state/catalogue.ts), shared across Next's dev reloads.
const queues = () => processState("jobQueues", () => new Map<string, JobQueue<unknown>>());

/** This process's in-process queues created so far (the admin queue view in embedded mode). */
export function listJobQueues(): JobQueue<unknown>[] {
  return [...queues().values()];
}

/**
 * The queue for a job definition, created on first use: the in-process runner, or in queue mode
 * (MODE=queue) BullMQ, whose workers (`npm run worker`) run the same definitions.
 */
export function getQueue<T>(def: JobDefinition<T>): JobQueue<T> {
  let queue = queues().get(def.name);
  if (!queue) {
    queue = (getEnv().MODE === "queue" ? createBullJobQueue(def) : createInProcessQueue(def)) as JobQueue<unknown>;
    queues().set(def.name, queue);
  }
  return queue as JobQueue<T>;
}
