import {
  encodeEvent,
  type PredictionEvent,
  type PredictionEventData,
  type PredictionEventName,
} from "@/common/schemas/prediction-stream";
import { asAppError } from "./responses";
import { log } from "../log";

/** Sends one event of the prediction stream (common/schemas/prediction-stream.ts), typed by its name. */
export type SendEvent = <E extends PredictionEventName>(event: E, data: PredictionEventData<E>) => void;

const HEARTBEAT_MS = 15_000;

/**
 * A Server-Sent Events response in Flowise's shape: every message is `data: {"event","data"}`.
 * Sends heartbeat comments while the work is quiet, aborts the work when the client goes away,
 * turns a failure into an `error` event `{ code, message }`, and always ends with an `end` event.
 */
export function sseResponse(
  work: (send: SendEvent, signal: AbortSignal) => Promise<void>,
  requestSignal?: AbortSignal,
  heartbeatMs = HEARTBEAT_MS,
): Response {
  const sender =
    (write: (text: string) => void): SendEvent =>
    (event, data) =>
      write(encodeEvent({ event, data } as PredictionEvent));
  return eventStreamResponse({
    work: (write, signal) => work(sender(write), signal),
    // The same {code, message} a JSON answer carries, so clients show the real reason.
    fail: (problem, write) => sender(write)("error", problem),
    end: (write) => sender(write)("end", "[DONE]"),
    requestSignal,
    heartbeatMs,
  });
}

/** What a failed stream tells its client: the error body's `{code, message, details?}`. */
export type StreamProblem = { code: string; message: string; details?: unknown };

/**
 * A text/event-stream response whose messages the caller encodes (Flowise's events, OpenAI's chunks).
 * Heartbeat comments while the work is quiet; the work aborted when the client goes away; a failure
 * handed to `fail` as the error body's fields (an unknown error logged and named generically); `end`
 * written last, whatever happened.
 */
export function eventStreamResponse(opts: {
  work: (write: (text: string) => void, signal: AbortSignal) => Promise<void>;
  fail: (problem: StreamProblem, write: (text: string) => void) => void;
  end: (write: (text: string) => void) => void;
  requestSignal?: AbortSignal | undefined;
  heartbeatMs?: number;
}): Response {
  const { requestSignal, heartbeatMs = HEARTBEAT_MS } = opts;
  const abort = new AbortController();
  const onRequestAbort = () => abort.abort();
  requestSignal?.addEventListener("abort", onRequestAbort, { once: true });
  const encoder = new TextEncoder();
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      // Events sent in one go (a model's tokens parsed from one network read) leave as one chunk:
      // they are gathered until the event loop's current turn is over, then enqueued together,
      // instead of a chunk, a read and a socket write per event.
      let pending = "";
      let scheduled = false;
      const flush = () => {
        scheduled = false;
        const text = pending;
        pending = "";
        if (text && !abort.signal.aborted) controller.enqueue(encoder.encode(text));
      };
      const write = (text: string) => {
        if (abort.signal.aborted) return;
        pending += text;
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      };
      heartbeat = setInterval(() => write(": heartbeat\n\n"), heartbeatMs);
      try {
        await opts.work(write, abort.signal);
      } catch (err) {
        // A client that went away is not a server fault.
        const problem = asAppError(err);
        if (problem.code === "internal" && !abort.signal.aborted) log.error({ err }, "streaming run failed");
        const message = problem.code === "internal" ? "The chatflow failed to answer." : problem.message;
        // Details (which node failed, the host, the reason) travel too, as in a JSON error body.
        const details =
          problem.code === "internal" || problem.details === undefined ? {} : { details: problem.details };
        opts.fail({ code: problem.code, message, ...details }, write);
      } finally {
        clearInterval(heartbeat);
        requestSignal?.removeEventListener("abort", onRequestAbort);
        opts.end(write);
        flush();
        if (!abort.signal.aborted) controller.close();
      }
    },
    cancel() {
      clearInterval(heartbeat);
      abort.abort();
    },
  });

  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
