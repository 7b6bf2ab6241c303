/**
 * Worker heartbeats: each worker process (`npm run worker`) keeps one Redis key,
 * `switchyard:workers:<workerId>`, holding what it is (JSON) with a short TTL, refreshed every few
 * seconds. A worker that dies stops refreshing and its key expires; one that stops cleanly deletes
 * it. API processes read them for /api/v1/health/ready (≥ 1 worker seen recently) and the admin
 * queue view.
 */
import type { Redis } from "ioredis";
import { errorText, log } from "../log";
import { QUEUE_PREFIX } from "./names";

export const WORKER_KEY_PREFIX = `${QUEUE_PREFIX}:workers:`;
export const HEARTBEAT_TTL_MS = 15_000;
export const HEARTBEAT_EVERY_MS = 5_000;

export type WorkerInfo = {
  workerId: string;
  host: string;
  pid: number;
  concurrency: number;
  queues: string[];
  /** ISO time the worker started. */
  startedAt: string;
  activeJobs: () => number;
};

/** One heartbeat as stored (and listed). */
export type WorkerHeartbeat = Omit<WorkerInfo, "activeJobs"> & { activeJobs: number; seenAt: string };

/**
 * Starts writing this worker's heartbeat (now, then every `everyMs`). Errors are logged once per
 * outage and never thrown: the heartbeat comes back with Redis. Returns `stop`, which deletes the key.
 */
export function startWorkerHeartbeat(
  redis: Redis,
  info: WorkerInfo,
  opts: { everyMs?: number; ttlMs?: number } = {},
): () => Promise<void> {
  const everyMs = opts.everyMs ?? HEARTBEAT_EVERY_MS;
  const ttlMs = opts.ttlMs ?? HEARTBEAT_TTL_MS;
  const key = `${WORKER_KEY_PREFIX}${info.workerId}`;
  let failing = false;
  let stopped = false;

  const beat = async () => {
    const { activeJobs, ...rest } = info;
    try {
      const value: WorkerHeartbeat = { ...rest, activeJobs: activeJobs(), seenAt: new Date().toISOString() };
      await redis.set(key, JSON.stringify(value), "PX", ttlMs);
      if (failing) log.info({ workerId: info.workerId }, "worker heartbeat written again");
      failing = false;
    } catch (err) {
      if (!failing) log.warn({ workerId: info.workerId, reason: errorText(err) }, "worker heartbeat failed (retrying)");
      failing = true;
    }
  };

  // A fail-fast connection refuses commands until it is connected: the first beat waits for that
  // (else a worker would stay invisible for a whole period after starting).
  let pending = redis.status === "ready" ? beat() : new Promise((r) => redis.once("ready", r)).then(() => beat());
  const timer = setInterval(() => {
    pending = pending.then(() => (stopped ? undefined : beat()));
  }, everyMs);
  timer.unref?.();

  return async () => {
    stopped = true;
    clearInterval(timer);
    await pending;
    await redis.del(key).catch((err) => log.warn({ reason: errorText(err) }, "could not delete the worker heartbeat"));
  };
}

/** Every live worker's heartbeat (SCAN, never KEYS: it does not block Redis), oldest start first. */
export async function listWorkers(redis: Redis): Promise<WorkerHeartbeat[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", `${WORKER_KEY_PREFIX}*`, "COUNT", 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== "0");
  if (!keys.length) return [];
  const values = await redis.mget(...new Set(keys));
  const workers: WorkerHeartbeat[] = [];
  for (const raw of values) {
    if (!raw) continue; // expired between SCAN and MGET
    try {
      workers.push(JSON.parse(raw) as WorkerHeartbeat);
    } catch {
      // not ours: skip
    }
  }
  return workers.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.workerId.localeCompare(b.workerId));
}

/** Workers whose heartbeat is at most `withinMs` old (the key's TTL already drops dead ones). */
export function recentWorkers(workers: WorkerHeartbeat[], withinMs = HEARTBEAT_TTL_MS, now = Date.now()) {
  return workers.filter((w) => now - Date.parse(w.seenAt) <= withinMs);
}
