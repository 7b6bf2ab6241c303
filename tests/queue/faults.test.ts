import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";
import { type BrainReply, createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { startRedisServer, stopRedisServer } from "../../dev/redis-server";
import { getDb } from "../../lib/db/client";
import { exchangeIdsOfRun, insertExchange } from "../../lib/db/queries/chat-messages";
import { resetEnvForTests } from "../../lib/env";
import { queueClient } from "../../lib/queue/client";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { parseSse } from "../../dev/route-server";
import { auth } from "../support/http";
import { queueRedis, spawnWorker, waitFor } from "./support";

// The faults of queue mode, with real worker processes: a worker killed mid-run, a worker told to
// stop mid-run, Redis going away and coming back.

let model: ModelStub;
let flowId: string;
let key: string;

/** A brain whose first call answers `first` and every later call `then` (a retry). */
function firstThen(first: BrainReply, then: BrainReply) {
  let calls = 0;
  return () => (calls++ === 0 ? first : then);
}

beforeAll(async () => {
  model = await createModelStub({ brain: () => ({ content: "fine" }) });
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: model.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  flowId = (
    await createChatflow({ name: "conv", graph: exampleFlow("conversation.json").graph as never }, systemCaller)
  ).id;
  key = (await createApiKey({ name: "predict", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner()))
    .key;
});
afterAll(() => model.close());

const predict = (body: object) =>
  prediction.POST(
    new Request(`http://127.0.0.1:3000/api/v1/prediction/${flowId}`, {
      method: "POST",
      headers: { ...auth.bearer(key), "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: flowId }) },
  );

const messagesOf = async (chatId: string) =>
  (await getDb()).chatMessage.findMany({ where: { chatflowId: flowId, chatId }, orderBy: { createdAt: "asc" } });

describe("exactly-once store", () => {
  it("an exchange stored twice under one run id is one exchange", async () => {
    const chatflowId = flowId;
    const input = {
      chatflowId,
      sessionId: "once",
      chatId: "once",
      chatType: "EXTERNAL" as const,
      question: "q",
      answer: "a",
      askedAt: new Date(),
      answeredAt: new Date(),
      runId: "job-1",
    };
    const first = await insertExchange(input);
    const second = await insertExchange({ ...input, answer: "another answer" });
    expect(second).toEqual(first);
    expect(first).toEqual(exchangeIdsOfRun("job-1"));
    expect((await messagesOf("once")).map((m) => m.content)).toEqual(["q", "a"]);
    expect(exchangeIdsOfRun("job-2").apiMessageId).not.toBe(first.apiMessageId);
  });
});

describe("a worker killed mid-prediction (SIGKILL)", () => {
  it("the job is retried on another worker: the JSON client gets the answer, stored exactly once", async () => {
    const a = await spawnWorker();
    // The first call never answers (the worker dies waiting); the retry answers at once.
    model.setBrain(firstThen({ content: "never", delivery: { hang: true } }, { content: "the answer" }));
    const first = model.requests.length;
    const pending = predict({ question: "survive this", chatId: "killed-json" });
    await waitFor(() => model.requests.length > first, 20_000);
    const b = await spawnWorker();
    a.child.kill("SIGKILL");
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ text: "the answer", chatId: "killed-json" });
    expect(model.requests.length - first).toBe(2);
    expect((await messagesOf("killed-json")).map((m) => [m.role, m.content])).toEqual([
      ["userMessage", "survive this"],
      ["apiMessage", "the answer"],
    ]);
    b.child.kill("SIGKILL");
    await b.exited;
  });

  it("a streaming client that already got tokens gets a 503 worker_lost error event; the retry stores the answer", async () => {
    const a = await spawnWorker();
    model.setBrain(firstThen({ content: "half an answer", delivery: { hang: true } }, { content: "the whole answer" }));
    const res = await predict({ question: "stream and die", chatId: "killed-sse", streaming: true });
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes('"event":"token"')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const b = await spawnWorker();
    a.child.kill("SIGKILL");
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const events = parseSse(text);
    expect(events.find((e) => e.event === "error")?.data).toMatchObject({
      code: "worker_lost",
      message: expect.stringMatching(/interrupted.*retried/),
    });
    expect(events.at(-1)?.event).toBe("end");
    await waitFor(async () => (await messagesOf("killed-sse")).length === 2, 20_000);
    expect((await messagesOf("killed-sse")).map((m) => m.content)).toEqual(["stream and die", "the whole answer"]);
    b.child.kill("SIGKILL");
    await b.exited;
  });
});

describe("SIGTERM on a worker with a job running", () => {
  it("the job completes, then the worker exits 0", async () => {
    const w = await spawnWorker();
    const first = model.requests.length;
    // The model answers only once the worker has been told to stop and said it finishes the job.
    let answer!: () => void;
    const told = new Promise<void>((resolve) => (answer = resolve));
    model.setBrain(async () => {
      await told;
      return { content: "finished politely" };
    });
    const pending = predict({ question: "take your time", chatId: "sigterm" });
    await waitFor(() => model.requests.length > first, 20_000);
    w.child.kill("SIGTERM");
    await waitFor(() => /SIGTERM: finishing running jobs/.test(w.output()), 20_000, w.output);
    answer();
    const res = await pending;
    expect(res.status).toBe(200);
    expect((await res.json()).text).toBe("finished politely");
    const code = await w.exited;
    expect(code).toBe(0);
    expect(model.requests[first].answer).toBe("sent"); // not cut short, not retried
    expect(model.requests).toHaveLength(first + 1);
  });
});

describe("Redis going away and coming back", () => {
  it("answers 503 queue_unavailable within 2 s while Redis is down; API and worker recover by themselves", async () => {
    const w = await spawnWorker();
    model.setBrain(() => ({ content: "up" }));
    expect((await predict({ question: "before", chatId: "redis-1" })).status).toBe(200);

    await stopRedisServer(queueRedis.server!);
    await waitFor(() => queueClient().command.status !== "ready", 10_000);
    const started = Date.now();
    const res = await predict({ question: "during", chatId: "redis-2" });
    const elapsed = Date.now() - started;
    expect(res.status).toBe(503);
    expect((await res.json()).error).toMatchObject({
      code: "queue_unavailable",
      message: `The job queue (Redis at 127.0.0.1:${queueRedis.port}) is unreachable.`,
    });
    expect(elapsed).toBeLessThan(2_000);

    queueRedis.server = await startRedisServer(queueRedis.port);
    await waitFor(() => queueClient().command.status === "ready", 15_000);
    model.setBrain(() => ({ content: "back" }));
    const after = await predict({ question: "after", chatId: "redis-3" });
    expect(after.status).toBe(200);
    expect((await after.json()).text).toBe("back");
    expect(w.child.exitCode).toBeNull(); // the same worker, never restarted
  });
});
