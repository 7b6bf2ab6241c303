import { createInProcessQueue } from "./in-process-queue";
import type { JobDefinition, JobQueue } from "./types";

export type { JobContext, JobDefinition, JobQueue } from "./types";
export { createInProcessQueue } from "./in-process-queue";

// One queue per name per process, kept on globalThis so Next's dev reloads share it.
const holder = globalThis as unknown as { __switchyardQueues?: Map<string, JobQueue<unknown>> };

/**
 * The queue for a job definition, created on first use. Today always the in-process runner;
 * queue mode (Redis/BullMQ) would be chosen here, with the same definitions.
 */
export function getQueue<T>(def: JobDefinition<T>): JobQueue<T> {
  holder.__switchyardQueues ??= new Map();
  let queue = holder.__switchyardQueues.get(def.name);
  if (!queue) {
    queue = createInProcessQueue(def) as JobQueue<unknown>;
    holder.__switchyardQueues.set(def.name, queue);
  }
  return queue as JobQueue<T>;
}
