import type { PredictionResponse } from "@/common/schemas/prediction-stream";
import { createEventReader, type StreamEvent } from "./sse-parser";

/**
 * The one prediction client of the studio chat and the embed widget: POSTs a question with
 * `streaming: true` and reports the answer as the events of common/schemas/prediction-stream.ts.
 * Framework-free, and no zod (the widget bundles it; it imports schema types only).
 */

export type { StreamEvent };

/** The server refused the request before any answer (4xx/5xx with our `{error:{code,message}}`). */
export class PredictionRefused extends Error {
  constructor(
    readonly status: number,
    /** The body's `error`, when it had one. */
    readonly error: { code?: string; message?: string; details?: unknown } | undefined,
    /** The Retry-After header of a 429. */
    readonly retryAfter: string | null,
  ) {
    super(error?.message ?? `The server answered ${status}.`);
  }
}

/** The request never reached the server (offline, DNS, or a CORS refusal: browsers do not tell them apart). */
export class PredictionUnreachable extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException("The operation was aborted.", "AbortError");
}

/**
 * Reads an event-stream body to its end, calling `onEvent` per event. Aborting `signal` cancels
 * the body, delivers no further event and rejects with the abort's reason (an AbortError).
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (e: StreamEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events = createEventReader((e) => {
    if (!signal?.aborted) onEvent(e);
  });
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) throw abortError(signal);
      const { value, done } = await reader.read();
      if (signal?.aborted) throw abortError(signal);
      if (done) break;
      events.push(decoder.decode(value, { stream: true }));
    }
    events.push(decoder.decode());
    events.end();
  } finally {
    signal?.removeEventListener("abort", cancel);
  }
}

/** A JSON answer (a server that does not stream) told as the events a stream would have sent. */
export function answerEvents(answer: Partial<PredictionResponse>): StreamEvent[] {
  const events: StreamEvent[] = [{ event: "token", data: answer.text ?? "" }];
  if (Array.isArray(answer.usedTools)) events.push({ event: "usedTools", data: answer.usedTools });
  if (Array.isArray(answer.sourceDocuments)) events.push({ event: "sourceDocuments", data: answer.sourceDocuments });
  if (typeof answer.chatId === "string") {
    const { text: _text, usedTools: _tools, sourceDocuments: _docs, ...metadata } = answer;
    events.push({ event: "metadata", data: metadata });
  }
  events.push({ event: "end", data: "[DONE]" });
  return events;
}

export interface PredictionStreamRequest {
  /** The prediction endpoint, e.g. `/api/v1/prediction/{id}` or `https://host/api/v1/prediction/{id}`. */
  url: string;
  /** The prediction body (common/schemas/prediction.ts); `streaming: true` is added. */
  body: Record<string, unknown>;
  onEvent: (e: StreamEvent) => void;
  signal?: AbortSignal;
}

/**
 * Asks for a streamed answer and reports each event; resolves when the stream ends. Throws
 * PredictionUnreachable when the request fails, PredictionRefused on an error status, and the
 * abort's reason (an AbortError) when `signal` is aborted.
 */
export async function streamPrediction(req: PredictionStreamRequest): Promise<void> {
  let res: Response;
  try {
    res = await fetch(req.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ ...req.body, streaming: true }),
      signal: req.signal,
    });
  } catch (e) {
    if (req.signal?.aborted) throw e;
    throw new PredictionUnreachable(e);
  }
  if (!res.ok) {
    const json = (await res.json().catch(() => null)) as { error?: PredictionRefused["error"] } | null;
    throw new PredictionRefused(res.status, json?.error ?? undefined, res.headers.get("retry-after"));
  }
  if (res.body && res.headers.get("content-type")?.includes("text/event-stream")) {
    return readEventStream(res.body, req.onEvent, req.signal);
  }
  for (const e of answerEvents((await res.json()) as Partial<PredictionResponse>)) req.onEvent(e);
}
