import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { exampleFlow } from "../../dev/flows";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { queueClient } from "../../lib/queue/client";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { auth } from "../support/http";
import { type SpawnedWorker, spawnWorker, sseEvents, startModel, userTexts, waitFor } from "./support";

// Queue mode end to end: this process is the API (real route handlers), predictions run on a
// spawned worker process, which calls the test's model server.

let model: Awaited<ReturnType<typeof startModel>>;
/** The one worker of this file, started by the first test that needs it. */
const workers: SpawnedWorker[] = [];
let flowId: string;
let key: string;
/** How the model answers the next calls (tests set it). */
let plan: (i: number) => { text: string; delayMs?: number; tokenMs?: number; hang?: boolean } = () => ({
  text: "default answer",
});

beforeAll(async () => {
  model = await startModel((c, i) => {
    const p = plan(i);
    return { ...p, text: p.text.replace("{users}", userTexts(c).join(" | ")) };
  });
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: model.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const f = exampleFlow("conversation.json");
  flowId = (await createChatflow({ name: "conv", graph: f.graph as never }, systemCaller)).id;
  key = (await createApiKey({ name: "predict", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner()))
    .key;
});
afterAll(() => model.close());

const predict = (body: object, init: { signal?: AbortSignal } = {}) =>
  prediction.POST(
    new Request(`http://127.0.0.1:3000/api/v1/prediction/${flowId}`, {
      method: "POST",
      headers: { ...auth.bearer(key), "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: init.signal,
    }),
    { params: Promise.resolve({ id: flowId }) },
  );

const messagesOf = async (chatId: string) =>
  (await getDb()).chatMessage.findMany({ where: { chatflowId: flowId, chatId }, orderBy: { createdAt: "asc" } });

describe("without a worker", () => {
  it("a prediction nobody takes answers 504 job_timeout after JOB_TIMEOUT_MS, and the job is withdrawn", async () => {
    process.env.JOB_TIMEOUT_MS = "800";
    resetEnvForTests();
    try {
      const res = await predict({ question: "anyone there?", chatId: "nobody" });
      expect(res.status).toBe(504);
      expect((await res.json()).error).toMatchObject({ code: "job_timeout", message: expect.stringMatching(/worker/) });
    } finally {
      delete process.env.JOB_TIMEOUT_MS;
      resetEnvForTests();
    }
    // A worker starting later does not run the withdrawn job.
    workers.push(await spawnWorker());
    await new Promise((r) => setTimeout(r, 1_000));
    expect(model.calls).toHaveLength(0);
    expect(await messagesOf("nobody")).toHaveLength(0);
  });
});

describe("through a worker", () => {
  beforeAll(async () => {
    if (!workers.length) workers.push(await spawnWorker());
  });

  it("answers JSON and remembers the session: the second turn sees the first", async () => {
    plan = () => ({ text: "heard: {users}" });
    const first = await predict({ question: "my name is Ada", chatId: "mem-1" });
    expect(first.status).toBe(200);
    const a = await first.json();
    expect(a).toMatchObject({ text: "heard: my name is Ada", chatId: "mem-1", sessionId: "mem-1" });
    const second = await predict({ question: "what is my name?", chatId: "mem-1" });
    const b = await second.json();
    expect(b.text).toBe("heard: my name is Ada | what is my name?");
    const stored = await messagesOf("mem-1");
    expect(stored.map((m) => [m.role, m.content])).toEqual([
      ["userMessage", "my name is Ada"],
      ["apiMessage", "heard: my name is Ada"],
      ["userMessage", "what is my name?"],
      ["apiMessage", "heard: my name is Ada | what is my name?"],
    ]);
    expect(b.chatMessageId).toBe(stored[3].id);
  });

  it("streams the worker's tokens as SSE, then metadata and end", async () => {
    plan = () => ({ text: "one two three four", tokenMs: 20 });
    const res = await predict({ question: "count", chatId: "sse-1", streaming: true });
    expect(res.headers.get("content-type")).toMatch(/event-stream/);
    const events = sseEvents(await res.text());
    const tokens = events.filter((e) => e.event === "token").map((e) => e.data);
    expect(tokens.join("")).toBe("one two three four");
    expect(tokens.length).toBeGreaterThan(1);
    expect(events.map((e) => e.event).filter((e) => e !== "token")).toEqual(["start", "metadata", "end"]);
    expect(events.find((e) => e.event === "metadata")?.data).toMatchObject({ chatId: "sse-1" });
    expect((await messagesOf("sse-1")).map((m) => m.content)).toEqual(["count", "one two three four"]);
  });

  it("a 4xx found on the worker (an image upload the flow does not take) is the same 4xx to the client", async () => {
    const png = `data:image/png;base64,${Buffer.from("\x89PNG\r\n\x1a\n0000").toString("base64")}`;
    const res = await predict({
      question: "look",
      uploads: [{ type: "file", name: "a.png", mime: "image/png", data: png }],
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/image uploads/),
    });
  });

  it("a client that goes away aborts the model call on the worker", async () => {
    plan = () => ({ text: "a b c d e f g h i j k l m n o p", tokenMs: 400 });
    const before = model.calls.length;
    const abort = new AbortController();
    const res = await predict({ question: "long story", chatId: "abort-1", streaming: true }, { signal: abort.signal });
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes('"event":"token"')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    abort.abort();
    await reader.cancel().catch(() => {});
    await waitFor(() => model.calls[before]?.closedEarly === true, 10_000);
    expect(model.calls[before].done).toBe(false);
    // Nothing half-answered is stored.
    await new Promise((r) => setTimeout(r, 500));
    expect(await messagesOf("abort-1")).toHaveLength(0);
  });

  it("an outcome whose event never arrives (pub/sub lost it) is read from the job's state", async () => {
    plan = () => ({ text: "polled answer", delayMs: 800 });
    const before = model.calls.length;
    const pending = predict({ question: "are you there?", chatId: "missed-1" });
    await waitFor(() => model.calls.length > before, 10_000);
    // As a reconnect would: this process stops hearing the job's channel before the result is published.
    await queueClient().subscriber.unsubscribe();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ text: "polled answer", chatId: "missed-1" });
  });
});
