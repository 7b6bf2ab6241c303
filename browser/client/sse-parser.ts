/**
 * Server-Sent Events, read incrementally: the part of the WHATWG event-stream rules our
 * prediction stream needs. Framework-free and dependency-free: the studio and the embed widget
 * (public/embed.js) both use it.
 */

/** One message of a prediction stream: `{event, data}` as the server wrote it, or `message` for data that is not. */
export type StreamEvent = { event: string; data: unknown };

export interface SseParser {
  /** Feeds the next piece of text, split anywhere (even between `\r` and `\n`). */
  push(chunk: string): void;
  /** The stream ended: a last message without its blank line is still delivered. */
  end(): void;
}

/**
 * Calls `onData` with the data of every complete message. Lines end in `\r\n`, `\r` or `\n`; a
 * message's `data:` lines are joined with `\n`; one space after the colon is dropped; comment
 * lines (`: heartbeat`) and other fields (`event:`, `id:`, `retry:`) are skipped; a byte-order
 * mark before the first line is dropped.
 */
export function createSseParser(onData: (data: string) => void): SseParser {
  let buffer = "";
  let data: string[] = [];
  let started = false;
  // The last piece ended in "\r": a "\n" that starts the next piece ends the same line.
  let skipLf = false;

  const dispatch = () => {
    if (data.length === 0) return;
    const text = data.join("\n");
    data = [];
    onData(text);
  };
  const line = (l: string) => {
    if (l === "") return dispatch();
    if (l.startsWith(":")) return;
    const colon = l.indexOf(":");
    if ((colon < 0 ? l : l.slice(0, colon)) !== "data") return;
    const value = colon < 0 ? "" : l.slice(colon + 1);
    data.push(value.startsWith(" ") ? value.slice(1) : value);
  };

  return {
    push(chunk) {
      if (!chunk) return;
      if (!started) {
        started = true;
        if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      }
      if (skipLf && chunk.startsWith("\n")) chunk = chunk.slice(1);
      skipLf = false;
      let start = 0;
      // What is left in the buffer holds no line break: scan the new text only.
      const text = buffer + chunk;
      for (let i = buffer.length; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        line(text.slice(start, i));
        if (c === 13) {
          if (i + 1 === text.length) skipLf = true;
          else if (text.charCodeAt(i + 1) === 10) i++;
        }
        start = i + 1;
      }
      buffer = text.slice(start);
    },
    end() {
      if (buffer) line(buffer);
      buffer = "";
      dispatch();
    },
  };
}

/**
 * A message's data as an event: our `{"event","data"}` JSON as is; any other data (JSON or not,
 * e.g. from a proxy or another server) as a `message` event instead of an exception.
 */
export function decodeEvent(payload: string): StreamEvent {
  try {
    const parsed = JSON.parse(payload) as { event?: unknown; data?: unknown } | null;
    if (parsed && typeof parsed.event === "string") return { event: parsed.event, data: parsed.data };
    return { event: "message", data: parsed };
  } catch {
    return { event: "message", data: payload };
  }
}

/** An SSE parser that delivers decoded events. */
export function createEventReader(onEvent: (e: StreamEvent) => void): SseParser {
  return createSseParser((data) => onEvent(decodeEvent(data)));
}
