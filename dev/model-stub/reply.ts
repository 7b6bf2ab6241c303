/**
 * Writes the model stub's answers to the socket: JSON or text in one write, SSE chunk by chunk at
 * the pace the brain asked for (`Delivery`), or never finished (`hang`), for tests of slow models,
 * cut streams and clients that give up.
 */
import type http from "node:http";
import type { SseEvent } from "./anthropic";
import type { Delivery } from "./brain";

/**
 * An answer of the stub: JSON, text, `data:` chunks (OpenAI's end with `data: [DONE]`, Gemini's
 * with the last chunk: `done: false`), or Anthropic's named events.
 */
export type Reply = (
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; text: string }
  | { sse: unknown[]; done?: false }
  | { events: SseEvent[] }
  /** AWS's binary event stream (Bedrock's ConverseStream): frames written one by one. */
  | { eventStream: Buffer[] }
) & { delivery?: Delivery };

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  connection: "keep-alive",
};

/** Writes a reply; resolves once it is written, cut by the client, or left hanging. */
export async function writeReply(res: http.ServerResponse, reply: Reply): Promise<void> {
  if (res.destroyed) return;
  const { chunkMs = 0, hang = false } = reply.delivery ?? {};
  if ("eventStream" in reply) {
    res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
    for (const [i, frame] of reply.eventStream.entries()) {
      if (hang && i === reply.eventStream.length - 1) return;
      if (i > 0 && chunkMs > 0) await new Promise((resolve) => setTimeout(resolve, chunkMs));
      if (res.destroyed) return;
      res.write(frame);
    }
    res.end();
    return;
  }
  if ("events" in reply || "sse" in reply) {
    res.writeHead(200, SSE_HEADERS);
    const chunks =
      "events" in reply
        ? reply.events.map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`)
        : reply.sse.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
    for (const [i, chunk] of chunks.entries()) {
      if (hang && i === chunks.length - 1) return; // the tokens went out; the answer never ends
      // A paced sender: the pause is the model's speed, not something a test waits out.
      if (i > 0 && chunkMs > 0) await new Promise((resolve) => setTimeout(resolve, chunkMs));
      if (res.destroyed) return;
      res.write(chunk);
    }
    res.end("sse" in reply && reply.done !== false ? "data: [DONE]\n\n" : undefined);
    return;
  }
  if (hang) return;
  const isText = "text" in reply;
  const payload = isText ? reply.text : JSON.stringify(reply.json);
  res.writeHead(reply.status, {
    ...("headers" in reply ? reply.headers : {}),
    "content-type": isText ? "text/plain; charset=utf-8" : "application/json",
    "content-length": Buffer.byteLength(payload),
  });
  res.end(payload);
}
