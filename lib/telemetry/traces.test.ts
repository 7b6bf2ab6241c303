import { describe, expect, it } from "vitest";
import { currentTraceIds, currentTraceparent, inSpan, requestParent, tracingOn, underTraceparent } from "./traces";
import { traceCallbacks } from "./langchain";

// With no OTLP endpoint, start-up never registers a tracer: every hook must run its work as if it
// were not there (the prediction path calls them on every request).
describe("tracing off", () => {
  it("runs the work without a span and answers no trace context", async () => {
    expect(tracingOn()).toBe(false);
    expect(await inSpan("x", { a: 1 }, async (span) => ({ span, value: 42 }))).toEqual({ span: undefined, value: 42 });
    await expect(inSpan("x", {}, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(currentTraceparent()).toBeUndefined();
    expect(currentTraceIds()).toBeUndefined();
    expect(requestParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toBeUndefined();
    expect(await underTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", async () => "ran")).toBe(
      "ran",
    );
    expect(traceCallbacks()).toEqual([]);
  });
});
