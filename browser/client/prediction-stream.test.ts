import { afterEach, describe, expect, it, vi } from "vitest";
import { encodeEvent, predictionEventSchema } from "@/common/schemas/prediction-stream";
import {
  PredictionRefused,
  PredictionUnreachable,
  readEventStream,
  streamPrediction,
  type StreamEvent,
} from "./prediction-stream";

const bytes = (s: string) => new TextEncoder().encode(s);

/** A body that sends the given byte chunks, then stays open until `close()` (or ends at once). */
function body(chunks: Uint8Array[], keepOpen = false) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      for (const chunk of chunks) c.enqueue(chunk);
      if (!keepOpen) c.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, more: (s: string) => controller.enqueue(bytes(s)), cancelled: () => cancelled };
}

afterEach(() => vi.unstubAllGlobals());

describe("readEventStream", () => {
  it("decodes UTF-8 split across reads and events split across chunks", async () => {
    const wire = bytes(
      'data: {"event":"token","data":"Grüße "}\r\n\r\n: heartbeat\r\n\r\ndata: {"event":"token","data":"€"}\r\n\r\n',
    );
    const chunks = Array.from({ length: wire.length }, (_, i) => wire.slice(i, i + 1));
    const events: StreamEvent[] = [];
    await readEventStream(body(chunks).stream, (e) => events.push(e));
    expect(events).toEqual([
      { event: "token", data: "Grüße " },
      { event: "token", data: "€" },
    ]);
  });

  it("stops on abort: cancels the body, delivers nothing more and rejects with an AbortError", async () => {
    const b = body([bytes('data: {"event":"token","data":"a"}\n\n')], true);
    const abort = new AbortController();
    const events: StreamEvent[] = [];
    const done = readEventStream(
      b.stream,
      (e) => {
        events.push(e);
        abort.abort();
      },
      abort.signal,
    );
    await expect(done).rejects.toMatchObject({ name: "AbortError" });
    expect(b.cancelled()).toBe(true);
    expect(events).toEqual([{ event: "token", data: "a" }]);
  });

  it("reads what the server writes as valid events", async () => {
    const sent = [
      { event: "start", data: "" },
      { event: "token", data: "line one\nline two\r\n" },
      { event: "metadata", data: { chatId: "c", chatMessageId: "m", question: "q", sessionId: "s" } },
      { event: "end", data: "[DONE]" },
    ] as const;
    const events: StreamEvent[] = [];
    await readEventStream(body(sent.map((e) => bytes(encodeEvent(e)))).stream, (e) => events.push(e));
    expect(events).toEqual(sent);
    for (const e of events) expect(predictionEventSchema.safeParse(e).success).toBe(true);
  });
});

describe("streamPrediction", () => {
  const sse = (text: string) => new Response(text, { headers: { "content-type": "text/event-stream; charset=utf-8" } });

  it("posts the body with streaming on and reports the stream's events", async () => {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) =>
      sse('data: {"event":"token","data":"hi"}\r\rdata: {"event":"end","data":"[DONE]"}\r\r'),
    );
    vi.stubGlobal("fetch", fetchMock);
    const events: StreamEvent[] = [];
    await streamPrediction({ url: "/api/v1/prediction/f", body: { question: "q" }, onEvent: (e) => events.push(e) });
    expect(events.map((e) => e.event)).toEqual(["token", "end"]);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe("/api/v1/prediction/f");
    expect(JSON.parse(String(init.body))).toEqual({ question: "q", streaming: true });
    expect(init.headers).toMatchObject({ "content-type": "application/json", accept: "text/event-stream" });
  });

  it("tells a JSON answer as the events a stream would have sent", async () => {
    const answer = {
      text: "hello",
      chatId: "c",
      chatMessageId: "m",
      question: "q",
      sessionId: "s",
      usedTools: [{ tool: "t", toolInput: {}, toolOutput: "o" }],
    };
    vi.stubGlobal("fetch", async () => Response.json(answer));
    const events: StreamEvent[] = [];
    await streamPrediction({ url: "/x", body: {}, onEvent: (e) => events.push(e) });
    expect(events).toEqual([
      { event: "token", data: "hello" },
      { event: "usedTools", data: answer.usedTools },
      { event: "metadata", data: { chatId: "c", chatMessageId: "m", question: "q", sessionId: "s" } },
      { event: "end", data: "[DONE]" },
    ]);
  });

  it("throws PredictionRefused with the server's error and Retry-After", async () => {
    const error = {
      code: "invalid_graph",
      message: "The flow is not valid: …",
      details: [{ code: "flow_empty", params: {} }],
    };
    vi.stubGlobal("fetch", async () => Response.json({ error }, { status: 422, headers: { "retry-after": "3" } }));
    const refused = await streamPrediction({ url: "/x", body: {}, onEvent: () => {} }).catch((e) => e);
    expect(refused).toBeInstanceOf(PredictionRefused);
    expect(refused).toMatchObject({ status: 422, error, retryAfter: "3", message: error.message });
    vi.stubGlobal("fetch", async () => new Response("<html>", { status: 502 }));
    await expect(streamPrediction({ url: "/x", body: {}, onEvent: () => {} })).rejects.toMatchObject({
      status: 502,
      message: "The server answered 502.",
    });
  });

  it("throws PredictionUnreachable when the request fails, and the AbortError when it was aborted", async () => {
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(streamPrediction({ url: "/x", body: {}, onEvent: () => {} })).rejects.toBeInstanceOf(
      PredictionUnreachable,
    );
    const abort = new AbortController();
    abort.abort();
    vi.stubGlobal("fetch", async (_u: string, init: RequestInit) => {
      throw init.signal!.reason;
    });
    await expect(
      streamPrediction({ url: "/x", body: {}, onEvent: () => {}, signal: abort.signal }),
    ).rejects.toMatchObject({ name: "AbortError" });
  });
});
