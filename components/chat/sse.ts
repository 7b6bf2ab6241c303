/** One message of the prediction stream: `data: {"event": E, "data": D}`. */
export type PredictionEvent = { event: string; data: unknown };

/**
 * Reads a text/event-stream body and calls `onEvent` per message. Lines starting with ':' are
 * heartbeats; a message may span several `data:` lines (joined with newlines, as the spec says).
 */
export async function readEventStream(body: ReadableStream<Uint8Array>, onEvent: (e: PredictionEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  const flush = () => {
    if (data.length === 0) return;
    const text = data.join("\n");
    data = [];
    try {
      const parsed = JSON.parse(text) as PredictionEvent;
      if (parsed && typeof parsed.event === "string") onEvent(parsed);
    } catch {
      // Not one of ours: ignore rather than break the chat.
    }
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, "");
      buffer = buffer.slice(nl + 1);
      if (line === "") flush();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      // ':' heartbeats and other fields are ignored
    }
  }
  if (buffer.startsWith("data:")) data.push(buffer.slice(5).replace(/^ /, ""));
  flush();
}
