import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FlowiseClient } from "flowise-sdk";
import { auth } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, demoBrain, type ModelStub } from "../../dev/model-stub/server";
import { parseSse, serveRoutes } from "../../dev/route-server";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as streamingCheck from "../../app/api/v1/chatflows-streaming/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { createChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { predictionEventSchema, predictionResponseSchema } from "@/common/schemas/prediction-stream";
import { readEventStream, type StreamEvent } from "@/browser/client/prediction-stream";

let stub: ModelStub;
let productApi: ProductApi;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let key: string;
let agentId: string;
let conversationId: string;

beforeAll(async () => {
  [stub, productApi] = await Promise.all([createModelStub(), createProductApi()]);
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const agent = exampleFlow("product-search-agent.json", { productApiUrl: productApi.url });
  agentId = (await createChatflow({ name: "agent", graph: agent.graph as never }, systemCaller)).id;
  conversationId = (
    await createChatflow({ name: "conv", graph: exampleFlow("conversation.json").graph as never }, systemCaller)
  ).id;
  key = (await createApiKey({ name: "k", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner())).key;
  server = await serveRoutes([
    { method: "POST", pattern: /^\/api\/v1\/prediction\/(?<id>[^/]+)$/, handler: prediction.POST as never },
    { method: "GET", pattern: /^\/api\/v1\/chatflows-streaming\/(?<id>[^/]+)$/, handler: streamingCheck.GET as never },
  ]);
});
afterAll(() => Promise.all([stub.close(), productApi.close(), server.close()]));

const post = (id: string, body: object) =>
  fetch(`${server.url}/api/v1/prediction/${id}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...auth.bearer(key) },
    body: JSON.stringify(body),
  });

describe("streaming", () => {
  it("sends start, tokens, usedTools, metadata and end last, and the tokens make the stored answer", async () => {
    const res = await post(agentId, { question: "find me a laptop under 1500 in Germany", streaming: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = parseSse(await res.text());
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("start");
    expect(names.at(-1)).toBe("end");
    expect(names.filter((n) => n === "token").length).toBeGreaterThan(1);
    expect(names.indexOf("usedTools")).toBeGreaterThan(names.lastIndexOf("token"));
    expect(names.indexOf("metadata")).toBeGreaterThan(names.indexOf("usedTools"));
    const text = events
      .filter((e) => e.event === "token")
      .map((e) => e.data)
      .join("");
    const meta = events.find((e) => e.event === "metadata")!.data as {
      chatMessageId: string;
      sessionId: string;
      memoryType: string;
    };
    expect(meta.memoryType).toBe("Buffer Memory");
    const stored = await (await getDb()).chatMessage.findUnique({ where: { id: meta.chatMessageId } });
    expect(stored?.content).toBe(text);
    expect(text).toMatch(/Laptop/);
  });

  it("sends only events of the declared schemas, which the shared client reads back", async () => {
    const res = await post(agentId, {
      question: "find me a laptop under 1500 in Germany",
      streaming: true,
      overrideConfig: { returnSourceDocuments: true },
    });
    const events: StreamEvent[] = [];
    await readEventStream(res.body!, (e) => events.push(e));
    expect(events.length).toBeGreaterThan(3);
    for (const e of events) expect(predictionEventSchema.parse(e)).toEqual(e);
    expect(events.map((e) => e.event)).toContain("sourceDocuments");
    const json = await post(conversationId, { question: "hello" });
    const answer = await json.json();
    expect(predictionResponseSchema.strict().parse(answer)).toEqual(answer);
  });

  it("reports a failure as an error event followed by end", async () => {
    stub.setBrain(() => ({ error: { status: 500, message: "model exploded" } }));
    try {
      const res = await post(conversationId, { question: "hello", streaming: true });
      const events = parseSse(await res.text());
      expect(events.map((e) => e.event)).toContain("error");
      // The same {code, message, details} as a JSON error body: here the failing model node, in words and by id.
      expect(events.find((e) => e.event === "error")?.data).toEqual({
        code: "upstream_error",
        message: expect.stringMatching(
          /^Chat model “.+” failed: the provider at 127\.0\.0\.1:\d+ answered HTTP 500\.$/,
        ),
        details: expect.objectContaining({ node: expect.objectContaining({ id: expect.any(String) }), status: 500 }),
      });
      expect(events.at(-1)?.event).toBe("end");
    } finally {
      stub.setBrain(demoBrain);
    }
  });

  it("aborts the run when the client disconnects: nothing is stored", async () => {
    let modelCalled!: () => void;
    const called = new Promise<void>((resolve) => (modelCalled = resolve));
    // The model waits until its client hangs up: the run giving up its model call.
    const modelCallCut = new Promise<void>((resolve) =>
      stub.setBrain(async ({ signal }) => {
        modelCalled();
        await new Promise((r) => signal?.addEventListener("abort", r));
        resolve();
        return { content: "too late" };
      }),
    );
    try {
      const abort = new AbortController();
      const res = await fetch(`${server.url}/api/v1/prediction/${conversationId}`, {
        method: "POST",
        signal: abort.signal,
        headers: { "content-type": "application/json", ...auth.bearer(key) },
        body: JSON.stringify({ question: "hello?", streaming: true, chatId: "chat-abort" }),
      });
      expect(res.status).toBe(200);
      await called;
      abort.abort();
      await modelCallCut;
      // A later question in the same chat is answered after the aborted run gave up: it is the only
      // exchange stored, and its history holds no turn of the aborted run.
      stub.setBrain(demoBrain);
      expect((await post(conversationId, { question: "still there?", chatId: "chat-abort" })).status).toBe(200);
      const stored = await (await getDb()).chatMessage.findMany({
        where: { chatId: "chat-abort" },
        orderBy: { createdAt: "asc" },
      });
      expect(stored.map((m) => m.role)).toEqual(["userMessage", "apiMessage"]);
      expect(stored[0].content).toBe("still there?");
      const asked = stub.requests.at(-1)?.body as { messages: { role: string; content: string }[] };
      expect(asked.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["still there?"]);
    } finally {
      stub.setBrain(demoBrain);
    }
  });

  it("refuses a bad request with a JSON error before any stream starts", async () => {
    const res = await post(conversationId, { streaming: true });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("validation_failed");
  });
});

describe("flowise-sdk", () => {
  const client = () => new FlowiseClient({ baseUrl: server.url, apiKey: key });

  it("gets a JSON answer", async () => {
    const res = (await client().createPrediction({ chatflowId: conversationId, question: "my name is Dora" })) as {
      text: string;
      chatId: string;
    };
    expect(res.text.length).toBeGreaterThan(0);
    expect(res.chatId).toBeTruthy();
  });

  it("streams events with the SDK's own parser", async () => {
    const stream = (await client().createPrediction({
      chatflowId: agentId,
      question: "find me a laptop under 1500 in Germany",
      streaming: true,
    })) as AsyncIterable<{ event: string; data: unknown }>;
    const events: { event: string; data: unknown }[] = [];
    for await (const e of stream) events.push(e);
    expect(events[0].event).toBe("start");
    expect(events.at(-1)?.event).toBe("end");
    expect(events.some((e) => e.event === "usedTools")).toBe(true);
    expect(
      events
        .filter((e) => e.event === "token")
        .map((e) => e.data)
        .join(""),
    ).toMatch(/Laptop/);
  });
});
