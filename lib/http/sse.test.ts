import { describe, expect, it } from "vitest";
import { AppError } from "@/common/errors";
import { sseResponse } from "./sse";

describe("sseResponse", () => {
  it("sends heartbeat comments while the work is quiet, then the events and end", async () => {
    // The work stays quiet until the reader has seen two heartbeats.
    let twoHeartbeatsRead!: () => void;
    const quietUntil = new Promise<void>((resolve) => (twoHeartbeatsRead = resolve));
    const res = sseResponse(
      async (send) => {
        await quietUntil;
        send("token", "hi");
      },
      undefined,
      20,
    );
    let text = "";
    const decoder = new TextDecoder();
    const reader = res.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      text += decoder.decode(read.value, { stream: true });
      if ((text.match(/^: heartbeat$/gm)?.length ?? 0) >= 2) twoHeartbeatsRead();
    }
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(text.match(/^: heartbeat$/gm)?.length ?? 0).toBeGreaterThanOrEqual(2);
    const events = text
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => JSON.parse(l.slice(5)));
    expect(events).toEqual([
      { event: "token", data: "hi" },
      { event: "end", data: "[DONE]" },
    ]);
  });

  it("turns a failure into an error event with the AppError's message, still ending with end", async () => {
    const res = sseResponse(async () => {
      throw new AppError("upstream_unavailable", "The model is down.");
    });
    const events = (await res.text())
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => JSON.parse(l.slice(5)));
    expect(events).toEqual([
      { event: "error", data: { code: "upstream_unavailable", message: "The model is down." } },
      { event: "end", data: "[DONE]" },
    ]);
  });

  it("reports a caller mistake found after the stream started as error {code, message}, then end", async () => {
    const res = sseResponse(async (send) => {
      send("start", "");
      throw new AppError("validation_failed", "body.question: must not contain a NUL character.");
    });
    const events = (await res.text())
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => JSON.parse(l.slice(5)));
    expect(events).toEqual([
      { event: "start", data: "" },
      {
        event: "error",
        data: { code: "validation_failed", message: "body.question: must not contain a NUL character." },
      },
      { event: "end", data: "[DONE]" },
    ]);
  });

  it("hides the details of an unexpected failure behind code internal", async () => {
    const res = sseResponse(async () => {
      throw new Error("secret stack detail");
    });
    const text = await res.text();
    expect(text).not.toContain("secret stack detail");
    expect(text).toContain(
      JSON.stringify({ event: "error", data: { code: "internal", message: "The chatflow failed to answer." } }),
    );
  });

  it("sends the events of one turn of the event loop as one chunk, and a later event as its own", async () => {
    let later!: () => void;
    const res = sseResponse(async (send) => {
      send("token", "a");
      await Promise.resolve(); // a microtask later: still the same turn
      send("token", "b");
      await new Promise<void>((resolve) => (later = resolve));
      send("token", "c");
    });
    const reader = res.body!.getReader();
    const decode = (chunk?: Uint8Array) => new TextDecoder().decode(chunk);
    const tokens = (text: string) => [...text.matchAll(/"data":"(\w)"/g)].map((m) => m[1]);
    expect(tokens(decode((await reader.read()).value))).toEqual(["a", "b"]);
    later();
    const rest: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest.push(decode(r.value));
    // "c" and the end event come in the last turn, together: one chunk.
    expect(rest).toHaveLength(1);
    expect(tokens(rest[0])).toEqual(["c"]);
    expect(rest[0]).toContain('"event":"end"');
  });

  it("aborts the work when the reader goes away", async () => {
    let workAborted!: () => void;
    const aborted = new Promise<void>((resolve) => (workAborted = resolve));
    const res = sseResponse(async (_send, signal) => {
      await new Promise<void>((resolve) =>
        signal.addEventListener("abort", () => {
          workAborted();
          resolve();
        }),
      );
    });
    const reader = res.body!.getReader();
    await reader.cancel();
    await aborted; // never resolves (the test times out) if the work is not aborted
  });
});
