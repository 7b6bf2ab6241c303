/**
 * What API processes and workers say to each other about one job (queue mode), all plain JSON:
 * - the job's data: `{ input, deadline, requestId?, traceparent? }` (runJob wraps the caller's input);
 * - events on the API process's reply channel (`replyTo` in the job's data; `jobChannel(id)` when
 *   absent), each naming its job: `attempt` (a retry: 2 and up), `event` (tokens, tool events…),
 *   `result`, `error`;
 * - the job's return value in BullMQ, the same outcome as `result`/`error`, read by the API when an
 *   event was missed (the subscriber reconnected);
 * - `abort` on the control channel every worker listens to (the client went away, the wait timed out).
 */
import { AppError, type ErrorCode, isAppError, STATUS_BY_CODE } from "@/common/errors";
import { QUEUE_PREFIX } from "./names";

export const CONTROL_CHANNEL = `${QUEUE_PREFIX}:job-control`;
/** Where a worker publishes a job's messages when its data names no `replyTo` (jobs of an older API process). */
export const jobChannel = (jobId: string) => `${QUEUE_PREFIX}:job:${jobId}`;
/** An API process's reply channel: one per process, subscribed once, for all its jobs' messages. */
export const replyChannelOf = (processId: string) => `${QUEUE_PREFIX}:reply:${processId}`;

export type JobData<T> = {
  input: T;
  /** Epoch ms past which nobody waits for the result: a worker that picks the job up later skips it. */
  deadline: number;
  requestId?: string;
  /** The W3C trace context of the run that queued it (tracing on): the worker's spans join that trace. */
  traceparent?: string;
  /** The API process's reply channel, where the worker publishes this job's messages. */
  replyTo?: string;
};

export type SerializedError = { code: ErrorCode; message: string; details?: unknown };

export type JobOutcome<R> = { ok: true; result: R } | { ok: false; error: SerializedError };

/** Every message names its job: a reply channel carries the messages of all its process's jobs. */
export type JobMessage = { jobId: string } & (
  | { type: "attempt"; attempt: number }
  | { type: "event"; name: string; data: unknown }
  | { type: "result"; result: unknown }
  | { type: "error"; error: SerializedError }
);

export type ControlMessage = { type: "abort"; jobId: string };

/** An error as it travels back to the API: an AppError keeps its code, message and details; anything else is `internal`. */
export function serializeError(err: unknown): SerializedError {
  if (isAppError(err))
    return { code: err.code, message: err.message, ...(err.details === undefined ? {} : { details: err.details }) };
  return { code: "internal", message: "The job failed on its worker." };
}

/** The AppError a serialized error stands for, so a 4xx found on the worker is the same 4xx to the client. */
export function rebuildError(e: SerializedError): AppError {
  const code: ErrorCode = e && typeof e.code === "string" && e.code in STATUS_BY_CODE ? e.code : "internal";
  return new AppError(code, typeof e?.message === "string" ? e.message : "The job failed.", {
    ...(e?.details === undefined ? {} : { details: e.details }),
  });
}

export function parseMessage<T>(raw: string): T | undefined {
  try {
    const value = JSON.parse(raw);
    return value && typeof value === "object" && typeof value.type === "string" ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}
