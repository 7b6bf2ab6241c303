import { describe, expect, it } from "vitest";
import { encodeEvent, predictionResponseSchema, readPredictionEvent } from "./prediction-stream";

describe("readPredictionEvent", () => {
  it("reads our events typed, and refuses unknown names and data of the wrong shape", () => {
    expect(readPredictionEvent({ event: "token", data: "hi" })).toEqual({ event: "token", data: "hi" });
    expect(
      readPredictionEvent({ event: "usedTools", data: [{ tool: "t", toolInput: { q: 1 }, toolOutput: "o" }] })?.event,
    ).toBe("usedTools");
    expect(readPredictionEvent({ event: "token", data: 42 })).toBeUndefined();
    expect(readPredictionEvent({ event: "usedTools", data: "nope" })).toBeUndefined();
    expect(readPredictionEvent({ event: "message", data: "not json" })).toBeUndefined();
  });

  it("reads a toolStart (tool, input, runId) and refuses one without a tool name", () => {
    const start = { tool: "product_search", input: { q: "laptop" }, runId: "r1" };
    expect(readPredictionEvent({ event: "toolStart", data: start })).toEqual({ event: "toolStart", data: start });
    expect(readPredictionEvent({ event: "toolStart", data: { input: {} } })).toBeUndefined();
    expect(readPredictionEvent({ event: "toolStart", data: "product_search" })).toBeUndefined();
  });

  it("keeps an error event whose data is a plain string (Flowise) as its message", () => {
    expect(readPredictionEvent({ event: "error", data: { code: "upstream_timeout", message: "slow" } })).toEqual({
      event: "error",
      data: { code: "upstream_timeout", message: "slow" },
    });
    expect(readPredictionEvent({ event: "error", data: "The model is down." })).toEqual({
      event: "error",
      data: { code: "error", message: "The model is down." },
    });
    expect(readPredictionEvent({ event: "error", data: null })).toEqual({
      event: "error",
      data: { code: "error", message: "" },
    });
  });
});

describe("encodeEvent", () => {
  it("writes one data line of {event, data} and a blank line", () => {
    expect(encodeEvent({ event: "token", data: "a\nb" })).toBe('data: {"event":"token","data":"a\\nb"}\n\n');
  });
});

describe("predictionResponseSchema", () => {
  it("takes the JSON answer the API documents, and refuses one without its ids", () => {
    const answer = {
      text: "t",
      question: "q",
      chatId: "c",
      chatMessageId: "m",
      sessionId: "s",
      memoryType: "Buffer Memory",
      sourceDocuments: [],
    };
    expect(predictionResponseSchema.parse(answer)).toEqual(answer);
    expect(predictionResponseSchema.safeParse({ text: "t" }).success).toBe(false);
  });
});
