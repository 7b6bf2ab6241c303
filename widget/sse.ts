/** One event of the prediction stream: `data: {"event": E, "data": D}`. */
export type StreamEvent = { event: string; data: unknown };

/**
 * An incremental reader of Server-Sent Events as our prediction endpoint sends them: feed it text
 * chunks as they arrive (split anywhere), it calls `onEvent` per complete event. Comment lines
 * (`:` heartbeats) are skipped; a data payload that is not JSON arrives as a `message` event.
 */
export function createSseReader(onEvent: (e: StreamEvent) => void) {
  let buffer = "";
  let data: string[] = [];
  const dispatch = () => {
    if (!data.length) return;
    const payload = data.join("\n");
    data = [];
    try {
      const parsed = JSON.parse(payload) as { event?: unknown; data?: unknown };
      if (parsed && typeof parsed.event === "string") return onEvent({ event: parsed.event, data: parsed.data });
      onEvent({ event: "message", data: parsed });
    } catch {
      onEvent({ event: "message", data: payload });
    }
  };
  const line = (l: string) => {
    if (l === "") return dispatch();
    if (l.startsWith(":")) return;
    const colon = l.indexOf(":");
    const field = colon < 0 ? l : l.slice(0, colon);
    const value = colon < 0 ? "" : l.slice(colon + 1).replace(/^ /, "");
    if (field === "data") data.push(value);
  };
  return {
    push(chunk: string) {
      buffer += chunk;
      const parts = buffer.split(/\r\n|\r|\n/);
      buffer = parts.pop() ?? "";
      for (const p of parts) line(p);
    },
    end() {
      if (buffer) line(buffer);
      buffer = "";
      dispatch();
    },
  };
}
