/**
 * Queue mode, API side: hands a job to the workers and waits for its outcome (runJob). Producers
 * fail fast: an add while Redis is down rejects at once (no offline queue) and is capped at
 * ADD_TIMEOUT_MS either way, answering 503 `queue_unavailable`; every wait ends by JOB_TIMEOUT_MS
 * (504 `job_timeout`).
 */
import { randomUUID } from "node:crypto";
import { Job, type JobsOptions, Queue } from "bullmq";
import type { Redis } from "ioredis";
import { getEnv } from "../env";
import { AppError } from "@/common/errors";
import { createRedisConnection } from "../redis/connection";
import { processState } from "../state/registry";
import { currentTraceparent } from "../telemetry/traces";
import { QUEUE_PREFIX, type QueueName } from "./names";
import {
  CONTROL_CHANNEL,
  type ControlMessage,
  type JobData,
  type JobMessage,
  type JobOutcome,
  parseMessage,
  rebuildError,
  replyChannelOf,
} from "./protocol";

/**
 * Longest an add (with the subscribe before it) may take before the request answers 503: under 2 s
 * with the chatflow lookup before it.
 */
export const ADD_TIMEOUT_MS = 1_500;
/** How often a waiting request reads the job's state, in case an event was missed. */
const POLL_MS = 1_000;
/** Finished jobs stay readable this long (seconds), for the polling above. */
const KEEP_FINISHED_SEC = 3_600;

type Listener = (msg: JobMessage) => void;

const everReady = new WeakSet<Redis>();

type QueueClient = {
  url: string;
  command: Redis;
  subscriber: Redis;
  queues: Map<QueueName, Queue>;
  /** The waiting runJob calls by job id. */
  listeners: Map<string, Listener>;
  /** This process's reply channel: workers publish every job's messages here (`replyTo` in the job's data). */
  replyChannel: string;
  /** The SUBSCRIBE to the reply channel of the subscriber's current connection. */
  subscribed?: Promise<unknown>;
  /** Resolves at the subscriber's next connect (jobs added while it is down wait for it). */
  connected?: Promise<void>;
};

function describeRedis(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || "6379"}`;
  } catch {
    return "REDIS_URL";
  }
}

export function queueUnavailable(url: string, cause?: unknown): AppError {
  return new AppError("queue_unavailable", `The job queue (Redis at ${describeRedis(url)}) is unreachable.`, {
    cause,
  });
}

/** This process's producer side, created on first use (`queue` in lib/state/catalogue.ts). */
export function queueClient(): QueueClient {
  return processState("queue", () => {
    const url = getEnv().REDIS_URL;
    if (!url) throw new AppError("not_configured", "Queue mode needs REDIS_URL.");
    const command = createRedisConnection(url, "command");
    command.on("ready", () => everReady.add(command));
    const subscriber = createRedisConnection(url, "subscriber");
    const listeners = new Map<string, Listener>();
    const replyChannel = replyChannelOf(randomUUID());
    subscriber.on("message", (channel: string, raw: string) => {
      if (channel !== replyChannel) return;
      const msg = parseMessage<JobMessage>(raw);
      if (msg && typeof msg.jobId === "string") listeners.get(msg.jobId)?.(msg);
    });
    const client: QueueClient = { url, command, subscriber, queues: new Map(), listeners, replyChannel };
    // SUBSCRIBE only once the connection is ready: ioredis would send it during the handshake (it
    // may run while Redis loads), before its INFO ready check, which then fails on a subscribed
    // connection. Each (re)connect subscribes again, so a reconnect never leaves the channel unheard
    // for longer than the outage (the poll in runJob covers that).
    subscriber.on("ready", () => void subscribeReplies(client).catch(() => {}));
    subscriber.on("close", () => {
      client.subscribed = undefined;
    });
    return client;
  });
}

/** The BullMQ producer of a queue, on the fail-fast command connection. */
export function producer(name: QueueName): Queue {
  const client = queueClient();
  let queue = client.queues.get(name);
  if (!queue) {
    queue = new Queue(name, { connection: client.command, prefix: QUEUE_PREFIX, skipWaitingForReady: true });
    queue.on("error", () => {}); // the connection logs its own outage once
    client.queues.set(name, queue);
  }
  return queue;
}

/** Rejects with 503 queue_unavailable when `work` fails or takes past the deadline. */
export async function withinAddBudget<T>(url: string, deadline: number, work: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(queueUnavailable(url)), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work(), late]);
  } catch (err) {
    throw err instanceof AppError ? err : queueUnavailable(url, err);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits for the command connection's first connect (right after start-up) until the deadline. A
 * connection that was ready and is not any more means Redis went away: 503 at once.
 */
export async function ready(redis: Redis, url: string, deadline: number): Promise<void> {
  if (redis.status === "ready") return;
  if (everReady.has(redis)) throw queueUnavailable(url);
  await withinAddBudget(
    url,
    deadline,
    () =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (redis.status !== "ready") return;
          redis.off("ready", check);
          resolve();
        };
        redis.on("ready", check);
        check();
      }),
  );
}

/** SUBSCRIBEs to this process's reply channel (at each connect of the subscriber; again after a failure). */
function subscribeReplies(client: QueueClient): Promise<unknown> {
  client.subscribed ??= client.subscriber.subscribe(client.replyChannel).catch((err) => {
    client.subscribed = undefined;
    throw err;
  });
  return client.subscribed;
}

/**
 * Resolves once this process hears its reply channel, so that no message of a job added after it
 * is missed: at once when subscribed (no round trip: the subscription is made once per connect,
 * not per job), else when the subscriber connects and subscribes.
 */
function repliesHeard(client: QueueClient): Promise<unknown> {
  if (client.subscriber.status === "ready") return subscribeReplies(client);
  // One listener for every job waiting through an outage.
  client.connected ??= new Promise<void>((resolve) =>
    client.subscriber.once("ready", () => {
      client.connected = undefined;
      resolve();
    }),
  );
  return client.connected.then(() => subscribeReplies(client));
}

/** Adds jobs of the in-process kind (fire and forget, lib/jobs), within the add budget. */
export async function addJobs(name: QueueName, jobs: { data: unknown; opts?: JobsOptions }[]): Promise<void> {
  const client = queueClient();
  const deadline = Date.now() + ADD_TIMEOUT_MS;
  await ready(client.command, client.url, deadline);
  await withinAddBudget(client.url, deadline, () =>
    producer(name).addBulk(jobs.map((j) => ({ name, data: j.data, opts: { ...keepFinished, ...j.opts } }))),
  );
}

const keepFinished = {
  removeOnComplete: { age: KEEP_FINISHED_SEC },
  removeOnFail: { age: KEEP_FINISHED_SEC },
} satisfies JobsOptions;

export type JobEvent = { type: "attempt"; attempt: number } | { type: "event"; name: string; data: unknown };

export interface RunJobOptions {
  /** The client went away: the job is aborted on its worker. */
  signal?: AbortSignal;
  /** Default JOB_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Attempts and the worker's events as they arrive. Throwing stops the wait with that error (the job runs on). */
  onEvent?: (event: JobEvent) => void;
  /** The job's id (default a new UUID): known before the add. */
  jobId?: string;
  requestId?: string;
}

/**
 * Runs one job on a worker and resolves with its result, or rejects with the worker's AppError
 * (rebuilt), 504 job_timeout, 503 queue_unavailable / worker_lost, or the abort reason.
 * The worker publishes the job's messages on this process's reply channel, subscribed before the
 * first add, so no event is missed; polls the job's state too, so an event missed during a
 * reconnect never leaves the request waiting.
 */
export async function runJob<R>(queueName: QueueName, input: unknown, opts: RunJobOptions = {}): Promise<R> {
  const client = queueClient();
  const jobId = opts.jobId ?? randomUUID();
  const timeoutMs = opts.timeoutMs ?? getEnv().JOB_TIMEOUT_MS;
  const startedAt = Date.now();
  const addDeadline = startedAt + ADD_TIMEOUT_MS;
  opts.signal?.throwIfAborted();

  let settle: { resolve: (r: R) => void; reject: (e: unknown) => void } | undefined;
  const early: JobMessage[] = [];
  const handle = (msg: JobMessage) => {
    if (settle) onMessage(msg);
    else early.push(msg);
  };
  let finished = false;
  const onMessage = (msg: JobMessage) => {
    if (finished) return;
    try {
      if (msg.type === "result") finish(() => settle!.resolve(msg.result as R));
      else if (msg.type === "error") finish(() => settle!.reject(rebuildError(msg.error)));
      else if (msg.type === "attempt") opts.onEvent?.({ type: "attempt", attempt: msg.attempt });
      else if (msg.type === "event") opts.onEvent?.({ type: "event", name: msg.name, data: msg.data });
    } catch (err) {
      finish(() => settle!.reject(err));
    }
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  let poller: ReturnType<typeof setInterval> | undefined;
  const onAbort = () => {
    finish(() => settle!.reject(opts.signal?.reason ?? new Error("aborted")));
    void cancel(client, queueName, jobId);
  };
  const cleanup = () => {
    clearTimeout(timer);
    clearInterval(poller);
    opts.signal?.removeEventListener("abort", onAbort);
    client.listeners.delete(jobId);
  };
  function finish(done: () => void) {
    if (finished) return;
    finished = true;
    cleanup();
    done();
  }

  try {
    await ready(client.command, client.url, addDeadline);
    client.listeners.set(jobId, handle);
    await withinAddBudget(client.url, addDeadline, () => client.subscribed ?? repliesHeard(client));
    const data: JobData<unknown> = {
      input,
      deadline: startedAt + timeoutMs,
      replyTo: client.replyChannel,
      ...(opts.requestId ? { requestId: opts.requestId } : {}),
      ...traceparentField(),
    };
    await withinAddBudget(client.url, addDeadline, () =>
      producer(queueName).add(queueName, data, { jobId, attempts: 1, ...keepFinished }),
    );
  } catch (err) {
    cleanup();
    throw err;
  }

  return new Promise<R>((resolve, reject) => {
    settle = { resolve, reject };
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    timer = setTimeout(
      () => {
        finish(() =>
          reject(
            new AppError(
              "job_timeout",
              `No worker finished the job within ${timeoutMs} ms (JOB_TIMEOUT_MS); is a worker running (npm run worker)?`,
            ),
          ),
        );
        void cancel(client, queueName, jobId);
      },
      Math.max(0, startedAt + timeoutMs - Date.now()),
    );
    poller = setInterval(() => {
      void readOutcome(queueName, jobId).then((outcome) => {
        if (!outcome || finished) return;
        if (outcome.ok) finish(() => resolve(outcome.result as R));
        else finish(() => reject(rebuildError(outcome.error)));
      });
    }, POLL_MS);
    for (const msg of early.splice(0)) onMessage(msg);
  });
}

/** The outcome of a finished job from BullMQ, or undefined while it runs (or Redis cannot tell). */
async function readOutcome(queueName: QueueName, jobId: string): Promise<JobOutcome<unknown> | undefined> {
  try {
    const job = await Job.fromId(producer(queueName), jobId);
    if (!job?.finishedOn) return undefined;
    const value = job.returnvalue as JobOutcome<unknown> | null | undefined;
    if (value && typeof value === "object" && "ok" in value) return value;
    if (job.failedReason)
      return {
        ok: false,
        error: {
          code: "worker_lost",
          message: `The job did not finish: its worker stopped more often than retries allow (${job.failedReason}).`,
        },
      };
    return undefined;
  } catch {
    return undefined;
  }
}

/** Tells every worker to abort the job, and removes it when no worker took it yet. Best effort. */
async function cancel(client: QueueClient, queueName: QueueName, jobId: string): Promise<void> {
  const message: ControlMessage = { type: "abort", jobId };
  await client.command.publish(CONTROL_CHANNEL, JSON.stringify(message)).catch(() => {});
  try {
    const job = await Job.fromId(producer(queueName), jobId);
    if (job && ((await job.isWaiting()) || (await job.isDelayed()))) await job.remove();
  } catch {
    // Taken meanwhile, or Redis is down: the worker skips it past its deadline.
  }
}

/** Closes this process's producer side (tests, shutdown). */
export async function closeQueueClient(): Promise<void> {
  const client = queueClient();
  await Promise.allSettled([...client.queues.values()].map((q) => q.close()));
  client.command.disconnect();
  client.subscriber.disconnect();
}

/** The job data's `traceparent` while tracing: the worker's spans continue the run's trace. */
function traceparentField(): { traceparent?: string } {
  const traceparent = currentTraceparent();
  return traceparent ? { traceparent } : {};
}
