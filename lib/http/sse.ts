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
      const send: SendEvent = (event, data) => write(encodeEvent({ event, data } as PredictionEvent));
      heartbeat = setInterval(() => write(": heartbeat\n\n"), heartbeatMs);
      try {
        await work(send, abort.signal);
      } catch (err) {
        // The same {code, message} a JSON answer carries, so clients show the real reason. A client
        // that went away is not a server fault.
        const problem = asAppError(err);
        if (problem.code === "internal" && !abort.signal.aborted) log.error({ err }, "streaming run failed");
        const message = problem.code === "internal" ? "The chatflow failed to answer." : problem.message;
        // Details (which node failed, the host, the reason) travel too, as in a JSON error body.
        const details =
          problem.code === "internal" || problem.details === undefined ? {} : { details: problem.details };
        send("error", { code: problem.code, message, ...details });
      } finally {
        clearInterval(heartbeat);
        requestSignal?.removeEventListener("abort", onRequestAbort);
        send("end", "[DONE]");
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
