// `npm run worker`: a queue-mode worker process (MODE=queue). Runs the predictions, vector upserts
// and domain analyses that API processes (`npm start`) queue in Redis; WORKER_CONCURRENCY jobs per
// queue at once. SIGTERM/SIGINT: stop taking jobs and let running ones finish; a second signal exits at once.
import os from "node:os";
import { randomUUID } from "node:crypto";
import { getEnv } from "../lib/env";
import { log, setLogRole } from "../lib/log";

// Every line of this process is JSON with role "worker"; job lines add jobId and the API's requestId.
setLogRole("worker");
const say = (line: string) => log.info(line);
const fail = (line: string) => {
  // One plain line on stderr, like the API's `cannot start:` (read by people and start-up scripts).
  console.error(`[switchyard worker] ${line.replace(/\s+/g, " ").trim()}`);
  process.exit(1);
};

let env: ReturnType<typeof getEnv>;
try {
  env = getEnv();
} catch (err) {
  fail(`cannot start: ${err instanceof Error ? err.message : String(err)}`);
  throw err;
}
if (env.MODE !== "queue") fail("refusing to start: set MODE=queue (with REDIS_URL and DATABASE_URL=postgresql://…)");

// Loaded after the settings are checked: some modules read them when loaded.
const { migrateDatabase } = await import("../lib/db/migrate");
const { closeWorkers, runningJobCount } = await import("../lib/queue");
const { startWorkerHeartbeat } = await import("../lib/queue/heartbeat");
const { createRedisConnection } = await import("../lib/redis");
const { startQueueWorkers } = await import("../lib/services/queue-workers");

try {
  // The API process migrates at start; a worker starting with it waits on the same advisory lock.
  await migrateDatabase({ onWait: () => say("waiting for another process to finish migrating the database…") });
} catch (err) {
  const e = err as { message?: string; code?: string };
  fail(`cannot start: ${((err instanceof Error && e.message) || e?.code || String(err)).replace(/\s+/g, " ")}`);
}

// Staged upserts an API process left behind when it died (older than JOB_TIMEOUT_MS × 2).
const { sweepStaleStaging } = await import("../lib/services/upsert-staging");
const swept = await sweepStaleStaging().catch((err) => {
  log.warn({ err: err instanceof Error ? err.message : String(err) }, "could not sweep DATA_DIR/staging");
  return [];
});
if (swept.length) say(`removed ${swept.length} stale upload staging dir(s) from DATA_DIR/staging`);

// Traces (OTEL_EXPORTER_OTLP_ENDPOINT): a job's spans join the trace of the request that queued it.
const { startTracingOrWarn, stopTracing } = await import("../lib/telemetry/start");
await startTracingOrWarn();

const queues = startQueueWorkers(env.WORKER_CONCURRENCY);
// Agentflow runs no job retries (their job failed after stalling twice, or was lost): taken over here.
(await import("../lib/services/agentflow-recovery")).startAbandonedRunRecovery({ worker: true });
// Seen by /api/v1/health/ready ("at least one worker") and the admin queue view.
const heartbeatRedis = createRedisConnection(env.REDIS_URL!, "command", (msg, err) =>
  log.warn({ err: err instanceof Error ? err.message : String(err) }, msg),
);
const stopHeartbeat = startWorkerHeartbeat(heartbeatRedis, {
  workerId: `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
  host: os.hostname(),
  pid: process.pid,
  concurrency: env.WORKER_CONCURRENCY,
  queues,
  startedAt: new Date().toISOString(),
  activeJobs: runningJobCount,
});
say(`worker ready (pid ${process.pid}): queues ${queues.join(", ")}, concurrency ${env.WORKER_CONCURRENCY}`);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) {
    say(`${signal} again: exiting now (running jobs are retried by another worker)`);
    process.exit(1);
  }
  stopping = true;
  say(`${signal}: finishing running jobs, then exiting`);
  closeWorkers()
    .then(() => stopHeartbeat().catch(() => {}))
    // The last jobs' spans are sent before exiting (a no-op without traces).
    .then(() => stopTracing())
    .then(() => {
      heartbeatRedis.disconnect();
      say("stopped");
      process.exit(0);
    })
    .catch((err) => fail(`could not stop cleanly: ${err instanceof Error ? err.message : String(err)}`));
};
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
