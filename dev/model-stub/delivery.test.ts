import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelStub, type ModelStub, scriptedBrain } from "./server";

// Slow, unfinished and abandoned answers: what tests of cut runs and dying workers script.
let stub: ModelStub;
beforeAll(async () => {
  stub = await createModelStub();
});
afterAll(() => stub.close());

const ask = (stream: boolean, signal?: AbortSignal) =>
  fetch(`${stub.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "stub-model", stream, messages: [{ role: "user", content: "hi" }] }),
    signal,
  });

/** Reads a streamed body until `text` has arrived. */
async function readUntil(body: ReadableStream<Uint8Array>, text: string) {
  const reader = body.getReader();
  let got = "";
  while (!got.includes(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before ${JSON.stringify(text)}: ${got}`);
    got += new TextDecoder().decode(value);
  }
  return got;
}

describe("delivery of the model stub's answers", () => {
  it("records an answer written in full as sent", async () => {
    stub.setBrain(scriptedBrain([{ content: "whole" }]));
    const completion = await new OpenAI({ apiKey: "k", baseURL: stub.url }).chat.completions.create({
      model: "stub-model",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(completion.choices[0].message.content).toBe("whole");
    await expect.poll(() => stub.requests.at(-1)?.answer).toBe("sent");
  });

  it("streams a paced answer whole (chunkMs)", async () => {
    stub.setBrain(scriptedBrain([{ content: "one two three", delivery: { chunkMs: 5 } }]));
    const text = await (await ask(true)).text();
    const tokens = text
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)).choices[0].delta.content ?? "");
    expect(tokens.join("")).toBe("one two three");
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  });

  it("hang: a stream stops before its end; the client giving up marks the answer cut", async () => {
    stub.setBrain(scriptedBrain([{ content: "never finished", delivery: { hang: true } }]));
    const abort = new AbortController();
    const res = await ask(true, abort.signal);
    const got = await readUntil(res.body!, "finished");
    expect(got).not.toContain('"finish_reason":"stop"');
    expect(stub.requests.at(-1)?.answer).toBe("pending");
    abort.abort();
    await expect.poll(() => stub.requests.at(-1)?.answer).toBe("cut");
  });

  it("hang: a JSON answer is never sent", async () => {
    stub.setBrain(scriptedBrain([{ content: "never sent", delivery: { hang: true } }]));
    const abort = new AbortController();
    const answered = ask(false, abort.signal).then(
      () => "answered",
      () => "aborted",
    );
    await expect.poll(() => stub.requests.at(-1)?.body).toMatchObject({ stream: false });
    abort.abort();
    expect(await answered).toBe("aborted");
    await expect.poll(() => stub.requests.at(-1)?.answer).toBe("cut");
  });

  it("tells a waiting brain when its client goes away (BrainRequest.signal)", async () => {
    let asked!: () => void;
    const called = new Promise<void>((resolve) => (asked = resolve));
    const cutSeen = new Promise<void>((resolve) =>
      stub.setBrain(async ({ signal }) => {
        asked();
        await new Promise((r) => signal?.addEventListener("abort", r));
        resolve();
        return { content: "too late" };
      }),
    );
    const abort = new AbortController();
    const sent = ask(false, abort.signal).catch(() => undefined);
    await called;
    abort.abort();
    await sent;
    await cutSeen;
    expect(stub.requests.at(-1)?.answer).toBe("cut");
  });
});
