// Timestamps of the queue hop for `BENCH_HOP_TRACE=1 npm run bench:queue` (issue 12), never loaded by the app.
// Loaded with `--import` into a worker process, and imported by bench/queue.ts (the API process): it wraps
// BullMQ's Queue.add / Worker.callProcessJob and ioredis' publish / subscribe / "message" so that every
// step of a job appends `<epoch ms with µs> <jobId> <step>` to the file QUEUE_TRACE_FILE names. Both
// processes use performance.timeOrigin + performance.now(), so their clocks compare to a few µs.
import fs from "node:fs";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";

const file = () => process.env.QUEUE_TRACE_FILE;
const JOB_CHANNEL = /:job:([0-9a-f-]{36})$/;
const JOB_ID = /"jobId":"([0-9a-f-]{36})"/;
/** The job a queue message is about: named by its channel (per-job channels) or in it (reply channels). */
const jobOf = (channel: unknown, message: unknown) =>
  typeof channel === "string" && channel.startsWith("switchyard:")
    ? (JOB_CHANNEL.exec(channel)?.[1] ?? JOB_ID.exec(String(message))?.[1])
    : undefined;

export const now = () => performance.timeOrigin + performance.now();

export function trace(jobId: string, step: string, at = now()): void {
  const to = file();
  if (to) fs.appendFileSync(to, `${at.toFixed(3)} ${jobId} ${step}\n`);
}

let installed = false;

/** Wraps the libraries once per process (no-op without QUEUE_TRACE_FILE). */
export function installQueueTrace(): void {
  if (installed || !file()) return;
  installed = true;
  const add = Queue.prototype.add;
  Queue.prototype.add = async function (this: Queue, name, data, opts) {
    const id = String(opts?.jobId ?? "?");
    trace(id, "api.add.start");
    try {
      return await add.call(this, name, data, opts);
    } finally {
      trace(id, "api.add.end");
    }
  } as typeof add;

  // Protected in BullMQ's types: the step between taking a job (moveToActive) and running its processor.
  const worker = Worker.prototype as unknown as Record<string, (job: { id?: string }, ...rest: unknown[]) => unknown>;
  const callProcessJob = worker.callProcessJob;
  worker.callProcessJob = function (this: Worker, job, ...rest) {
    trace(String(job.id), "worker.picked");
    return callProcessJob.call(this, job, ...rest);
  };

  const proto = Redis.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const publish = proto.publish;
  proto.publish = function (this: Redis, channel: unknown, message: unknown, ...rest: unknown[]) {
    const id = jobOf(channel, message);
    if (!id) return publish.call(this, channel, message, ...rest);
    const type = /"type":"(\w+)"/.exec(String(message))?.[1] ?? "?";
    trace(id, `worker.publish.${type}.call`);
    return (publish.call(this, channel, message, ...rest) as Promise<unknown>).finally(() =>
      trace(id, `worker.publish.${type}.ack`),
    );
  };
  const subscribe = proto.subscribe;
  proto.subscribe = function (this: Redis, ...args: unknown[]) {
    const id = typeof args[0] === "string" ? JOB_CHANNEL.exec(args[0])?.[1] : undefined;
    if (!id) return subscribe.apply(this, args);
    trace(id, "api.subscribe.start");
    return (subscribe.apply(this, args) as Promise<unknown>).finally(() => trace(id, "api.subscribe.end"));
  };
  const emit = proto.emit;
  proto.emit = function (this: Redis, event: unknown, ...args: unknown[]) {
    if (event === "message" && typeof args[0] === "string") {
      const id = jobOf(args[0], args[1]);
      const type = /"type":"(\w+)"/.exec(String(args[1]))?.[1] ?? "?";
      if (id) trace(id, `api.received.${type}`);
    }
    return emit.call(this, event, ...args);
  };
}

installQueueTrace();
