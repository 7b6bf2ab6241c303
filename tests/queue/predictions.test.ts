import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as ready from "../../app/api/v1/health/ready/route";
import { exampleFlow } from "../../dev/flows";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { type ChatMessage, textOf } from "../../dev/model-stub/brain";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { parseSse } from "../../dev/route-server";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { producer, queueClient } from "../../lib/queue/client";
import { jobChannel } from "../../lib/queue/protocol";
import type { PredictionJob } from "../../lib/services/predictions";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { auth } from "../support/http";
import { type SpawnedWorker, spawnWorker, waitFor } from "./support";

// Queue mode end to end: this process is the API (real route handlers), predictions run on a
// spawned worker process, which calls the test's model server.

let model: ModelStub;
/** The one worker of this file, started by the first test that needs it. */
const workers: SpawnedWorker[] = [];
/**
 * It runs one job at a time, in the order they were queued: once a later job is answered, every
 * earlier one has ended, which is how the tests below know a withdrawn or aborted job left nothing.
 */
const startWorker = () => spawnWorker({ WORKER_CONCURRENCY: "1" });
let flowId: string;
let key: string;

/** The user turns the model saw, for memory checks. */
const userTexts = (messages: ChatMessage[]) => messages.filter((m) => m.role === "user").map((m) => textOf(m.content));
/** Answers with every user turn it was sent: what the run remembered shows in the answer. */
const echoUsers = ({ messages }: { messages: ChatMessage[] }) => ({
  content: `heard: ${userTexts(messages).join(" | ")}`,
});

beforeAll(async () => {
  model = await createModelStub({ brain: () => ({ content: "default answer" }) });
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: model.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const f = exampleFlow("conversation.json");
  flowId = (await createChatflow({ name: "conv", graph: f.graph as never }, systemCaller)).id;
  key = (await createApiKey({ name: "predict", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner()))
    .key;
});
afterAll(() => model.close());

const predict = (body: object, init: { signal?: AbortSignal; headers?: Record<string, string> } = {}) =>
  prediction.POST(
    new Request(`http://127.0.0.1:3000/api/v1/prediction/${flowId}`, {
      method: "POST",
      headers: { ...auth.bearer(key), "content-type": "application/json", ...init.headers },
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
    // A worker starting later does not run the withdrawn job: a question asked after it is the
    // first and only one the model sees (the worker takes jobs one at a time, in queue order).
    workers.push(await startWorker());
    model.setBrain(echoUsers);
    const later = await predict({ question: "after the withdrawn one", chatId: "later" });
    expect(await later.json()).toMatchObject({ text: "heard: after the withdrawn one" });
    expect(model.requests.map((r) => userTexts((r.body as { messages: ChatMessage[] }).messages))).toEqual([
      ["after the withdrawn one"],
    ]);
    expect(await messagesOf("nobody")).toHaveLength(0);
  });
});

describe("through a worker", () => {
  beforeAll(async () => {
    if (!workers.length) workers.push(await startWorker());
  });

  it("answers JSON and remembers the session: the second turn sees the first", async () => {
    model.setBrain(echoUsers);
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

  it("/api/v1/health/ready sees the worker's heartbeat next to the database and Redis", async () => {
    const check = async () => {
      const res = await ready.GET(new Request("http://127.0.0.1:3000/api/v1/health/ready"));
      return { status: res.status, body: await res.json() };
    };
    // The heartbeat is written just after the worker's ready line.
    let last = await check();
    await waitFor(
      async () => (last = await check()).status === 200,
      5_000,
      () => JSON.stringify(last),
    );
    const { body } = last;
    expect(body).toMatchObject({
      status: "ready",
      checks: { database: { ok: true }, redis: { ok: true }, workers: { ok: true, count: workers.length } },
    });
  });

  it("the API request's id travels into the worker's JSON log lines for that job", async () => {
    model.setBrain(() => ({ content: "traced" }));
    const requestId = `trace-${Date.now()}`;
    const res = await predict({ question: "trace me", chatId: "trace-1" }, { headers: { "x-request-id": requestId } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe(requestId);
    const worker = workers[0];
    // "job done" is written just after the result is published: wait for it.
    const done = () =>
      worker
        .output()
        .split("\n")
        .some((l) => l.includes(requestId) && l.includes('"job done"'));
    await waitFor(done, 5_000, worker.output);
    const lines = worker
      .output()
      .split("\n")
      .filter((l) => l.includes(requestId))
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(["job started", "job done"]));
    for (const l of lines) expect(l).toMatchObject({ role: "worker", requestId, jobId: expect.any(String) });
  });

  it("streams the worker's tokens as SSE, then metadata and end", async () => {
    model.setBrain(() => ({ content: "one two three four", delivery: { chunkMs: 20 } }));
    const res = await predict({ question: "count", chatId: "sse-1", streaming: true });
    expect(res.headers.get("content-type")).toMatch(/event-stream/);
    const events = parseSse(await res.text());
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
    model.setBrain(() => ({ content: "a b c d e f g h i j k l m n o p", delivery: { chunkMs: 400 } }));
    const before = model.requests.length;
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
    await waitFor(() => model.requests[before]?.answer === "cut", 10_000);
    // Nothing half-answered is stored. A later question in the same chat runs after the aborted job
    // has ended (one job at a time): had that job stored its turn, the store and the later
    // question's history would hold it.
    model.setBrain(echoUsers);
    const later = await predict({ question: "still there?", chatId: "abort-1" });
    expect(await later.json()).toMatchObject({ text: "heard: still there?" });
    expect((await messagesOf("abort-1")).map((m) => m.content)).toEqual(["still there?", "heard: still there?"]);
  });

  it("one SUBSCRIBE per API process serves every job (no SUBSCRIBE/UNSUBSCRIBE per prediction)", async () => {
    model.setBrain(() => ({ content: "quick" }));
    const probe = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 });
    try {
      const calls = async (cmd: string) =>
        Number(new RegExp(`cmdstat_${cmd}:calls=(\\d+)`).exec(await probe.info("commandstats"))?.[1] ?? 0);
      expect((await predict({ question: "warm", chatId: "sub-0" })).status).toBe(200);
      const [sub0, unsub0] = [await calls("subscribe"), await calls("unsubscribe")];
      for (let i = 1; i <= 3; i++) {
        const res = await predict({ question: `q${i}`, chatId: `sub-${i}` });
        expect(await res.json()).toMatchObject({ text: "quick", chatId: `sub-${i}` });
      }
      expect([await calls("subscribe"), await calls("unsubscribe")]).toEqual([sub0, unsub0]);
    } finally {
      probe.disconnect();
    }
  });

  it("a job queued without replyTo (by an API process of the previous version) is answered on its job channel", async () => {
    model.setBrain(() => ({ content: "old style" }));
    const jobId = randomUUID();
    const listener = new Redis(process.env.REDIS_URL!);
    try {
      const got = new Promise<unknown>((resolve) =>
        listener.on("message", (_channel: string, raw: string) => {
          const msg = JSON.parse(raw);
          if (msg.type === "result") resolve(msg);
        }),
      );
      await listener.subscribe(jobChannel(jobId));
      const input: PredictionJob = {
        chatflowId: flowId,
        body: { question: "legacy?" },
        chatId: "legacy-1",
        sessionId: "legacy-1",
        chatType: "EXTERNAL",
        stream: false,
      };
      await producer("predictions").add("predictions", { input, deadline: Date.now() + 20_000 }, { jobId });
      expect(await got).toMatchObject({ jobId, type: "result", result: { text: "old style", chatId: "legacy-1" } });
    } finally {
      listener.disconnect();
    }
  });

  it("an outcome whose event never arrives (pub/sub lost it) is read from the job's state", async () => {
    // The model answers only once this process has stopped listening.
    let answer!: () => void;
    const unheard = new Promise<void>((resolve) => (answer = resolve));
    model.setBrain(async () => {
      await unheard;
      return { content: "polled answer" };
    });
    const before = model.requests.length;
    const pending = predict({ question: "are you there?", chatId: "missed-1" });
    await waitFor(() => model.requests.length > before, 10_000);
    // As a reconnect would: this process stops hearing the job's channel before the result is published.
    await queueClient().subscriber.unsubscribe();
    answer();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ text: "polled answer", chatId: "missed-1" });
  });
});
