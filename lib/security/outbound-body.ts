/**
 * Response bodies of the outbound guard: decoded (gzip, deflate, br) and capped by decoded size, so
 * a compression bomb stops too. Either read whole, or handed over as it arrives (model streams).
 */
import type http from "node:http";
import { pipeline, type Readable } from "node:stream";
import zlib from "node:zlib";
import { AppError } from "@/common/errors";

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: () => zlib.createGunzip(),
  "x-gzip": () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/** The response's content encoding, lower case ("" when none). */
function encodingOf(res: http.IncomingMessage): string {
  return String(res.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
}

function decodedStream(res: http.IncomingMessage): { stream: Readable; decoded: boolean } {
  const decoder = DECODERS[encodingOf(res)]?.();
  return { stream: (decoder ? pipeline(res, decoder, () => undefined) : res) as Readable, decoded: Boolean(decoder) };
}

function toResponse(res: http.IncomingMessage, url: URL, decoded: boolean, body: BodyInit | null): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    const name = res.rawHeaders[i].toLowerCase();
    if (decoded && (name === "content-encoding" || name === "content-length")) continue;
    headers.append(name, res.rawHeaders[i + 1]);
  }
  const status = res.statusCode ?? 502;
  const response = new Response(NULL_BODY_STATUSES.has(status) ? null : body, {
    status,
    statusText: res.statusMessage ?? "",
    headers,
  });
  Object.defineProperty(response, "url", { value: url.toString() });
  return response;
}

const tooLarge = (url: URL, maxBytes: number) =>
  new AppError("upstream_error", `Response from ${url.host} is larger than the ${maxBytes}-byte limit`);

/** Read and decode the whole body, refusing it past maxBytes. */
export async function readCappedBody(res: http.IncomingMessage, url: URL, maxBytes: number): Promise<Response> {
  const decoded = encodingOf(res) in DECODERS;
  return toResponse(res, url, decoded, (await readCappedBytes(res, url, maxBytes)) as Uint8Array<ArrayBuffer>);
}

/** The whole decoded body as bytes, refusing it past maxBytes (declared or read). */
export async function readCappedBytes(res: http.IncomingMessage, url: URL, maxBytes: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of cappedChunks(res, url, maxBytes)) parts.push(part);
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

/**
 * The decoded body as it arrives, refusing it past maxBytes (declared or read). A connection that
 * closes before the body is complete fails the read (node's premature-close error).
 */
export async function* cappedChunks(res: http.IncomingMessage, url: URL, maxBytes: number): AsyncGenerator<Buffer> {
  if (Number(res.headers["content-length"] ?? 0) > maxBytes) {
    res.destroy();
    throw tooLarge(url, maxBytes);
  }
  const { stream } = decodedStream(res);
  let size = 0;
  // A reader leaving early does not destroy the body here: leaveBody decides what happens to it.
  for await (const part of stream.iterator({ destroyOnReturn: false })) {
    size += (part as Buffer).length;
    if (size > maxBytes) {
      res.destroy();
      throw tooLarge(url, maxBytes);
    }
    yield part as Buffer;
  }
}

/** What leaveBody reads out of a body its reader left, at most: bytes, and milliseconds. */
export const LEFT_BODY_BYTES = 64 * 1024;
export const LEFT_BODY_MS = 1_000;

/**
 * Ends a body its reader left before the end (a loop over cappedChunks left early). A plain body is
 * read out and dropped, so that one nearly over hands its connection back to the agent's pool: a
 * model's SSE answer is left at its `data: [DONE]` event, usually before the chunked body's last
 * bytes are parsed, and closing the connection there made every streamed call connect anew. Past
 * LEFT_BODY_BYTES or LEFT_BODY_MS (a server that goes on), and for a decoded body, the connection is
 * closed at once instead.
 */
export function leaveBody(res: http.IncomingMessage): void {
  if (res.complete || res.destroyed) return;
  if (encodingOf(res) in DECODERS) return void res.destroy();
  let left = LEFT_BODY_BYTES;
  const close = () => {
    clearTimeout(timer);
    res.destroy();
  };
  const timer = setTimeout(close, LEFT_BODY_MS).unref();
  res.once("end", () => clearTimeout(timer));
  res.once("close", () => clearTimeout(timer));
  res.on("error", () => undefined); // a connection reset while reading out: nothing waits for it
  res.on("data", (part: Buffer) => {
    left -= part.length;
    if (left < 0) close();
  });
  res.resume();
}

/**
 * A Response whose body streams as the upstream sends it. Past maxBytes, on a broken connection or
 * when `signal` fires (the deadline), the body errors with `fail(cause)`, an AppError. `onEnd` runs
 * once the body is over (ended, failed or cancelled).
 */
export function streamCappedBody(
  res: http.IncomingMessage,
  url: URL,
  maxBytes: number,
  signal: AbortSignal,
  fail: (cause: unknown) => unknown,
  onEnd: () => void = () => {},
): Response {
  const { stream, decoded } = decodedStream(res);
  let size = 0;
  let done = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const finish = (err?: unknown) => {
        if (done) return;
        done = true;
        signal.removeEventListener("abort", onAbort);
        onEnd();
        if (err === undefined) return controller.close();
        res.destroy();
        controller.error(err);
      };
      const onAbort = () => finish(fail(signal.reason));
      signal.addEventListener("abort", onAbort);
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return finish(tooLarge(url, maxBytes));
        if (!done) controller.enqueue(new Uint8Array(chunk));
      });
      stream.on("end", () => finish());
      stream.on("error", (err) => finish(fail(err)));
      res.on("close", () => {
        if (!res.complete) finish(fail(new Error("the connection closed before the answer was complete")));
      });
    },
    cancel() {
      if (!done) onEnd();
      done = true;
      res.destroy();
    },
  });
  return toResponse(res, url, decoded, body);
}
