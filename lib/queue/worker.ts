/**
 * Queue mode, worker side: registerProcessor runs one queue's jobs in this process with BullMQ.
 * A processor gets the caller's input and a context (job id, attempt, abort signal, emit); what it
 * returns (or the AppError it throws) travels back to the API process waiting for it.
 *
 * Lost workers: a job's lock lasts JOB_LOCK_MS and is renewed while it runs; a worker killed
 * mid-job stops renewing, and after the lock expires another worker's stalled check moves the job
 * back to waiting. maxStalledCount 1: retried once, then failed (the API answers 503 worker_lost).
 */
import { Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import { getEnv } from "../env";
import { errorText, jobLogger, log as rootLog } from "../log";
import { AppError } from "@/common/errors";
import { createRedisConnection } from "../redis/connection";
import { processState } from "../state/registry";
import { underTraceparent } from "../telemetry/traces";
import { QUEUE_PREFIX, type QueueName } from "./names";
import {
  CONTROL_CHANNEL,
  type ControlMessage,
  type JobData,
  type JobMessage,
  type JobOutcome,
  jobChannel,
  parseMessage,
  serializeError,
} from "./protocol";

export interface ProcessorContext {
  jobId: string;
  /** 1 for the first run; 2 when a worker died running it and another took it over. */
  attempt: number;
  /** Aborted when the client went away or the API stopped waiting. */
  signal: AbortSignal;
  /** Sends an event to the API process waiting for this job (tokens, tool events…). Never throws. */
  emit: (name: string, data: unknown) => void;
  requestId?: string;
  log: (msg: string, err?: unknown) => void;
}

export type Processor<T, R> = (input: T, ctx: ProcessorContext) => Promise<R>;

export interface WorkerSettings {
  concurrency?: number;
  /** Lock of a running job, ms (default JOB_LOCK_MS). */
  lockMs?: number;
}

/** Forget an abort for a job that never started here after this long. */
const ABORT_MEMORY_MS = 10 * 60_000;

type WorkerState = {
  url: string;
  publisher: Redis;
  control: Redis;
  running: Map<string, AbortController>;
  abortedEarly: Map<string, number>;
  workers: Worker[];
};

const log = (msg: string, err?: unknown) =>
  err === undefined ? rootLog.warn(msg) : rootLog.error({ err: errorText(err) }, msg);

/**
 * One line per Redis outage for the whole worker process (it holds a dozen connections: each
 * BullMQ worker's, the publisher's, the control channel's), and one when Redis is back. A worker
 * started while Redis is down waits like this instead of exiting; BullMQ takes jobs once it connects.
 */
const outage = () => processState("queueWorkerOutage", () => ({ down: false }));

function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || "6379"}`;
  } catch {
    return "REDIS_URL";
  }
}

function redisDown(url: string, err: unknown): void {
  if (outage().down) return;
  outage().down = true;
  log(`Redis at ${describeUrl(url)} is unreachable; waiting for it (jobs are taken once it is back)`, err);
}

function redisUp(url: string): void {
  if (!outage().down) return;
  outage().down = false;
  log(`connected to Redis at ${describeUrl(url)} again: taking jobs`);
}

const CONNECTION_ERRORS = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "ETIMEDOUT", "EHOSTUNREACH", "EPIPE"]);

/** An error of the connection itself (Redis down), not of a job or a command. */
function isConnectionError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  if (typeof e?.code === "string" && CONNECTION_ERRORS.has(e.code)) return true;
  const message = typeof e?.message === "string" ? e.message : "";
  return /connect ECONNREFUSED|Connection is closed|connect ETIMEDOUT|Stream isn't writeable/i.test(message);
}

/** A BullMQ Worker's `error` listener: connection errors go to the outage line, others are logged. */
function onWorkerError(url: string, label: string) {
  return (err: Error) => (isConnectionError(err) ? redisDown(url, err) : log(`${label} worker error`, err));
}

function workerState(): WorkerState {
  return processState("queueWorker", () => {
    const url = getEnv().REDIS_URL;
    if (!url) throw new AppError("not_configured", "Queue mode needs REDIS_URL.");
    const publisher = createRedisConnection(url, "command", (_msg, err) => redisDown(url, err));
    const control = createRedisConnection(url, "subscriber", (_msg, err) => redisDown(url, err));
    for (const conn of [publisher, control]) conn.on("ready", () => redisUp(url));
    const state: WorkerState = { url, publisher, control, running: new Map(), abortedEarly: new Map(), workers: [] };
    control.on("message", (channel: string, raw: string) => {
      if (channel !== CONTROL_CHANNEL) return;
      const msg = parseMessage<ControlMessage>(raw);
      if (msg?.type !== "abort" || typeof msg.jobId !== "string") return;
      const running = state.running.get(msg.jobId);
      if (running) running.abort(new AppError("bad_request", "The job was cancelled by the API process."));
      else {
        const now = Date.now();
        for (const [id, at] of state.abortedEarly) if (now - at > ABORT_MEMORY_MS) state.abortedEarly.delete(id);
        state.abortedEarly.set(msg.jobId, now);
      }
    });
    control.subscribe(CONTROL_CHANNEL).catch((err) => log(`could not subscribe to ${CONTROL_CHANNEL}`, err));
    return state;
  });
}

/** A BullMQ worker connection: commands wait through an outage (maxRetriesPerRequest null) and it reconnects forever. */
function workerConnection(url: string): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: null,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  redis.on("error", (err) => redisDown(url, err));
  redis.on("ready", () => redisUp(url));
  return redis;
}

/** Starts a BullMQ worker for `queue` in this process running `processor`. */
export function registerProcessor<T, R>(queue: QueueName, processor: Processor<T, R>, settings: WorkerSettings = {}) {
  const state = workerState();
  const lockMs = settings.lockMs ?? getEnv().JOB_LOCK_MS;
  const publish = (job: Job<JobData<T>>, msg: JobMessage) =>
    state.publisher.publish(job.data.replyTo ?? jobChannel(msg.jobId), JSON.stringify(msg)).catch(() => {
      // Redis is down: the API reads the outcome from the job's state once it is back.
    });

  const worker = new Worker<JobData<T>, JobOutcome<R>>(
    queue,
    async (job: Job<JobData<T>, JobOutcome<R>>) => {
      const jobId = job.id as string;
      const attempt = Math.max(1, job.attemptsStarted || job.attemptsMade + 1);
      const controller = new AbortController();
      if (state.abortedEarly.delete(jobId))
        controller.abort(new AppError("bad_request", "The job was cancelled before it started."));
      const { input, deadline, requestId, traceparent } = job.data;
      let outcome: JobOutcome<R>;
      if (controller.signal.aborted || Date.now() > deadline) {
        outcome = {
          ok: false,
          error: {
            code: "job_timeout",
            message: "Nobody waits for this job any more (cancelled or past its deadline).",
          },
        };
        return outcome;
      }
      state.running.set(jobId, controller);
      // Its lines carry the job id and the request id of the API request that queued it.
      const jobLog = jobLogger(job);
      const started = Date.now();
      jobLog.info({ queue, attempt }, "job started");
      // Only a retry is news to the API (it ends a stream that already relayed tokens); the first
      // attempt starts at once, without waiting for a publish.
      if (attempt > 1) await publish(job, { jobId, type: "attempt", attempt });
      const ctx: ProcessorContext = {
        jobId,
        attempt,
        signal: controller.signal,
        emit: (name, data) => void publish(job, { jobId, type: "event", name, data }),
        ...(requestId ? { requestId } : {}),
        log: (msg, err) => (err === undefined ? jobLog.warn(msg) : jobLog.error({ err: errorText(err) }, msg)),
      };
      try {
        const result = await underTraceparent(traceparent, () => processor(input, ctx));
        outcome = { ok: true, result };
        await publish(job, { jobId, type: "result", result });
        jobLog.info({ queue, attempt, ms: Date.now() - started }, "job done");
      } catch (err) {
        if (!(err instanceof AppError)) jobLog.error({ queue, err: errorText(err) }, "job failed");
        outcome = { ok: false, error: serializeError(err) };
        jobLog.info({ queue, attempt, ms: Date.now() - started, code: outcome.error.code }, "job answered an error");
        await publish(job, { jobId, type: "error", error: outcome.error });
      } finally {
        state.running.delete(jobId);
      }
      return outcome;
    },
    {
      connection: workerConnection(state.url),
      prefix: QUEUE_PREFIX,
      concurrency: settings.concurrency ?? getEnv().WORKER_CONCURRENCY,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      maxStalledCount: 1,
    },
  );
  worker.on("error", onWorkerError(state.url, queue));
  state.workers.push(worker);
  return worker;
}

/** Jobs this process's request/response workers are running now (the heartbeat reports it). */
export function runningJobCount(): number {
  return workerState().running.size;
}

/**
 * Workers started with a raw BullMQ processor (lib/jobs definitions) join the same shutdown and
 * the same outage reporting.
 */
export function trackWorker(worker: Worker, label: string = worker.name): void {
  const state = workerState();
  worker.on("error", onWorkerError(state.url, label));
  state.workers.push(worker);
}

/** A worker connection for raw BullMQ workers (lib/queue/job-queue.ts). */
export function newWorkerConnection(): Redis {
  return workerConnection(workerState().url);
}

/**
 * Graceful stop: no new jobs; running ones finish (BullMQ worker.close()). `force` hands running
 * jobs back at once (their locks expire and another worker retries them).
 */
export async function closeWorkers(force = false): Promise<void> {
  const state = workerState();
  await Promise.allSettled(state.workers.map((w) => w.close(force)));
  state.publisher.disconnect();
  state.control.disconnect();
}
