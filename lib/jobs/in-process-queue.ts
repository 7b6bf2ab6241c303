import type { JobDefinition, JobQueue } from "./types";
import { log } from "../log";

type Entry<T> = { data: T; attempt: number };

/**
 * A queue that runs jobs in this process with bounded concurrency and exponential-backoff
 * retries. Jobs live in memory: a restart forgets waiting jobs (their persisted state says
 * "queued", so they can be queued again).
 */
export function createInProcessQueue<T>(def: JobDefinition<T>): JobQueue<T> {
  const concurrency = Math.max(1, def.concurrency ?? 4);
  const attempts = Math.max(1, def.attempts ?? 3);
  const waiting: Entry<T>[] = [];
  let delayed = 0;
  let completed = 0;
  let failed = 0;
  let active = 0;
  let idleWaiters: (() => void)[] = [];

  const notifyIfIdle = () => {
    if (waiting.length || delayed || active) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  };

  const pump = () => {
    while (active < concurrency && waiting.length) {
      const entry = waiting.shift()!;
      active++;
      void runOne(entry).finally(() => {
        active--;
        pump();
        notifyIfIdle();
      });
    }
  };

  const runOne = async (entry: Entry<T>) => {
    try {
      await def.handler(entry.data, { attempt: entry.attempt, attempts });
      completed++;
    } catch (error) {
      const retry = entry.attempt < attempts && (def.isRetryable?.(error) ?? true);
      if (retry) {
        delayed++;
        setTimeout(
          () => {
            delayed--;
            waiting.push({ data: entry.data, attempt: entry.attempt + 1 });
            pump();
          },
          Math.max(0, def.backoffMs ?? 1000) * 2 ** (entry.attempt - 1),
        ); // read late: settings may change
        return;
      }
      failed++;
      await def.onFailed?.(entry.data, error).catch((err) => log.error({ err, queue: def.name }, "job onFailed threw"));
    }
  };

  return {
    name: def.name,
    durable: false,
    async add(items) {
      for (const data of items) waiting.push({ data, attempt: 1 });
      pump();
    },
    counts: () => ({ waiting: waiting.length, delayed, active, completed, failed }),
    drained: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        notifyIfIdle();
      }),
  };
}
