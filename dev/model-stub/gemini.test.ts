import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelStub, type ModelStub, scriptedBrain } from "./server";

// Gemini's wire format as a client without an SDK sees it (the node's tests use Google's client).
let stub: ModelStub;
beforeAll(async () => {
  stub = await createModelStub({ apiKey: "g-key" });
});
afterAll(() => stub.close());

const post = (path: string, body: unknown, key = "g-key") =>
  fetch(`${stub.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-goog-api-key": key },
    body: JSON.stringify(body),
  });
const ask = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };

describe("Gemini's Generative Language API on the model stub", () => {
  it("streams `data:` events word by word, the last with finishReason and usage, and no [DONE]", async () => {
    stub.setBrain(scriptedBrain([{ content: "Two words" }]));
    const res = await post("/v1beta/models/gemini-x:streamGenerateContent?alt=sse", ask);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = (await res.text())
      .split("\n\n")
      .filter(Boolean)
      .map((e) => JSON.parse(e.replace(/^data: /, "")));
    expect(events.map((e) => e.candidates[0].content.parts[0].text)).toEqual(["Two", " words"]);
    expect(events[1]).toMatchObject({
      candidates: [{ finishReason: "STOP" }],
      usageMetadata: { candidatesTokenCount: 2 },
    });
  });

  it("answers function calls, takes the key as ?key=, and errors in Google's shape", async () => {
    stub.setBrain(scriptedBrain([{ toolCalls: [{ name: "lookup", arguments: { id: 7 } }] }]));
    const res = await fetch(`${stub.origin}/v1beta/models/gemini-x:generateContent?key=g-key`, {
      method: "POST",
      body: JSON.stringify(ask),
    });
    expect((await res.json()).candidates[0].content.parts).toEqual([
      { functionCall: { name: "lookup", args: { id: 7 } } },
    ]);
    const wrongKey = await post("/v1beta/models/gemini-x:generateContent", ask, "nope");
    expect(wrongKey.status).toBe(401);
    expect(await wrongKey.json()).toEqual({
      error: { code: 401, message: expect.any(String), status: "UNAUTHENTICATED" },
    });
    stub.setBrain(() => ({ error: { status: 500, message: "Internal error" } }));
    const failed = await post("/v1beta/models/gemini-x:generateContent", ask);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: { code: 500, message: "Internal error", status: "INTERNAL" } });
    const empty = await post("/v1beta/models/gemini-x:generateContent", { contents: [] });
    expect((await empty.json()).error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
  });
});
