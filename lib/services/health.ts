/**
 * Liveness and readiness (app/api/v1/health*): HTTP-free. Readiness runs its checks in parallel,
 * each with a deadline: the database (SELECT 1 through the app's own client), and where runs go to
 * queue workers (jobsPlacement in lib/jobs: queue mode) Redis (PING) and the workers (at least one
 * heartbeat seen recently, lib/queue/heartbeat.ts).
 * Failures name what failed by host:port only — never a URL, which may hold a password.
 */
import type { Redis } from "ioredis";
import { getDb } from "../db/client";
import { databaseAddress, databaseUnavailableReason } from "../db/unavailable";
import { jobsPlacement } from "../jobs";
import { errorText } from "../log";
import { HEARTBEAT_TTL_MS, listWorkers, recentWorkers } from "../queue/heartbeat";
import { redisConnections } from "../redis";

export const CHECK_TIMEOUT_MS = 1_000;

export type CheckResult = { ok: boolean; ms: number; error?: string; count?: number };
export type Readiness = {
  status: "ready" | "unavailable";
  mode: "embedded" | "queue";
  checks: Record<string, CheckResult>;
};

const startedAt = Date.now();

/** Whether this process is alive (no dependency is asked: load balancers call it often). */
export function liveness() {
  return { status: "ok" as const, mode: jobsPlacement().mode, uptimeSec: Math.round((Date.now() - startedAt) / 1000) };
}

class CheckTimeout extends Error {}

/** Runs `check` with a deadline; an error becomes `{ ok: false, error: explain(err) }`. */
async function timed(
  check: () => Promise<{ count?: number } | undefined>,
  explain: (err: unknown, timedOut: boolean) => string,
  timeoutMs: number,
): Promise<CheckResult> {
  const t0 = performance.now();
  const ms = () => Math.round(performance.now() - t0);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout()), timeoutMs);
  });
  try {
    const result = await Promise.race([check(), deadline]);
    return { ok: true, ...result, ms: ms() };
  } catch (err) {
    return { ok: false, ms: ms(), error: explain(err, err instanceof CheckTimeout) };
  } finally {
    clearTimeout(timer);
  }
}

function redisAddress(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 6379}`;
}

// The last connection error of each Redis connection, so a failed PING can say why.
const lastRedisError = new WeakMap<Redis, string>();
function watch(redis: Redis): Redis {
  if (!lastRedisError.has(redis)) {
    lastRedisError.set(redis, "");
    redis.on("error", (err: Error) => lastRedisError.set(redis, errorText(err)));
    redis.on("ready", () => lastRedisError.set(redis, ""));
  }
  return redis;
}

/**
 * Waits for a connection's first connect (a process's first readiness check creates it); a
 * connection with a known outage answers at once, so the check can say why.
 */
async function connected(redis: Redis): Promise<void> {
  if (redis.status === "ready" || lastRedisError.get(redis)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      redis.off("ready", done);
      redis.off("error", done);
      resolve();
    };
    redis.once("ready", done);
    redis.once("error", done);
  });
}

/** Checks the database, and where runs go to queue workers Redis and the workers; `ready` only if all pass. */
export async function readiness(opts: { timeoutMs?: number } = {}): Promise<Readiness> {
  const placement = jobsPlacement();
  const timeoutMs = opts.timeoutMs ?? CHECK_TIMEOUT_MS;
  const checks: Record<string, Promise<CheckResult>> = {
    database: timed(
      async () => {
        await (await getDb()).$queryRawUnsafe("SELECT 1");
        return undefined;
      },
      (err, timedOut) => {
        const address = safeDatabaseAddress();
        if (!address) return `the embedded database failed: ${errorText(err)}`;
        if (timedOut) return `PostgreSQL at ${address} did not answer within ${timeoutMs} ms`;
        const reason = databaseUnavailableReason(err);
        return reason
          ? `PostgreSQL at ${address} is unreachable (${reason})`
          : `PostgreSQL at ${address} failed: ${errorText(err).split("\n").filter(Boolean).at(-1)}`;
      },
      timeoutMs,
    ),
  };
  if (placement.mode === "queue") {
    const address = redisAddress(placement.redisUrl);
    const redis = watch(redisConnections(placement.redisUrl).command);
    const redisProblem = (err: unknown, timedOut: boolean) => {
      if (timedOut) return `Redis at ${address} did not answer within ${timeoutMs} ms`;
      const why =
        lastRedisError.get(redis) || (redis.status !== "ready" ? `connection ${redis.status}` : errorText(err));
      return `Redis at ${address} is unreachable (${why})`;
    };
    checks.redis = timed(
      async () => {
        await connected(redis);
        await redis.ping();
        return undefined;
      },
      redisProblem,
      timeoutMs,
    );
    checks.workers = timed(
      async () => {
        await connected(redis);
        const count = recentWorkers(await listWorkers(redis)).length;
        if (!count) throw new NoWorkers();
        return { count };
      },
      (err, timedOut) =>
        err instanceof NoWorkers
          ? `no worker heartbeat in the last ${HEARTBEAT_TTL_MS / 1000} s (start one with \`npm run worker\`)`
          : `cannot list workers: ${redisProblem(err, timedOut)}`,
      timeoutMs,
    );
  }
  const names = Object.keys(checks);
  const results = await Promise.all(Object.values(checks));
  const out = Object.fromEntries(names.map((n, i) => [n, results[i]]));
  if (out.workers && !out.workers.ok) out.workers.count = 0;
  return { status: results.every((r) => r.ok) ? "ready" : "unavailable", mode: placement.mode, checks: out };
}

class NoWorkers extends Error {}

function safeDatabaseAddress(): string | null {
  try {
    return databaseAddress();
  } catch {
    return null;
  }
}
