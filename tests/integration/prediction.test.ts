import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { createChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";

let stub: ModelStub;
let productApi: ProductApi;
let key: string;
const flows: Record<string, string> = {};

beforeAll(async () => {
  [stub, productApi] = await Promise.all([createModelStub(), createProductApi()]);
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const make = async (name: string, f: ReturnType<typeof exampleFlow>) => {
    flows[name] = (
      await createChatflow({ name, graph: f.graph as never, overrideAllowList: f.overrideAllowList }, systemCaller)
    ).id;
  };
  await make("agent", exampleFlow("product-search-agent.json", { productApiUrl: productApi.url }));
  await make("chainOnly", exampleFlow("openapi-chain-only.json", { productApiUrl: productApi.url }));
  await make("conversation", exampleFlow("conversation.json"));
  key = (await createApiKey({ name: "predict", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner()))
    .key;
});
afterAll(() => Promise.all([stub.close(), productApi.close()]));
beforeEach(() => productApi.setUnavailable(false));

const predict = (flow: string, body: object, headers: Record<string, string> = auth.bearer(key)) =>
  call(prediction.POST, { method: "POST", params: { id: flows[flow] ?? flow }, headers, body });

describe("product-search agent", () => {
  it("answers small talk without calling the API", async () => {
    const before = productApi.requests.length;
    const res = await predict("agent", { question: "Hello! How are you today?" });
    expect(res.status).toBe(200);
    expect(res.json.text.length).toBeGreaterThan(0);
    expect(res.json.usedTools).toBeUndefined();
    expect(productApi.requests.length).toBe(before);
    expect(res.json).toMatchObject({ question: "Hello! How are you today?", memoryType: "Buffer Memory" });
    expect(res.json.sessionId).toBe(res.json.chatId);
  });

  it("calls the API with countryCode DE, q laptop, max_price 1500 and answers from the products", async () => {
    const before = productApi.requests.length;
    const res = await predict("agent", { question: "find me a laptop under 1500 in Germany" });
    expect(res.status).toBe(200);
    const calls = productApi.requests.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].query).toMatchObject({ countryCode: "DE", q: "laptop", max_price: "1500" });
    expect(res.json.usedTools[0]).toMatchObject({ tool: "product_search" });
    expect(res.json.text).toMatch(/^I found \d+ products?: .*Laptop \(\d+\.\d\d EUR\)/);
  });

  it("remembers the session across calls, and sessions never see each other", async () => {
    const first = await predict("agent", { question: "Hi, my name is Ada.", overrideConfig: { sessionId: "s-ada" } });
    expect(first.status).toBe(200);
    const again = await predict("agent", { question: "What is my name?", overrideConfig: { sessionId: "s-ada" } });
    expect(again.json.text).toContain("Ada");
    const other = await predict("agent", { question: "What is my name?", overrideConfig: { sessionId: "s-other" } });
    expect(other.json.text).not.toContain("Ada");
  });

  it("survives the product API answering 503: the tool error becomes part of the answer", async () => {
    productApi.setUnavailable(true);
    const res = await predict("agent", { question: "find me a laptop under 1500 in Germany" });
    expect(res.status).toBe(200);
    expect(res.json.usedTools[0].toolOutput).toMatch(/unavailable|503/i);
    expect(res.json.text.length).toBeGreaterThan(0);
  });

  it("stores every exchange as two messages, and concurrent calls on one session all persist", async () => {
    const sessionId = "s-concurrent";
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        predict("agent", { question: `Hello number ${i}`, overrideConfig: { sessionId } }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const rows = await (await getDb()).chatMessage.findMany({ where: { sessionId }, orderBy: { createdAt: "asc" } });
    expect(rows).toHaveLength(10);
    expect(
      rows
        .filter((r) => r.role === "userMessage")
        .map((r) => r.content)
        .sort(),
    ).toEqual(Array.from({ length: 5 }, (_, i) => `Hello number ${i}`));
    expect(rows.every((r) => r.chatType === "EXTERNAL")).toBe(true);
    const ids = new Set(results.map((r) => r.json.chatMessageId));
    expect(ids.size).toBe(5);
  });
});

describe("OpenAPI chain alone", () => {
  it("fails small talk with 422 openapi_no_operation naming the spec and suggesting a Chain Tool", async () => {
    const res = await predict("chainOnly", { question: "Hello there, how are you?" });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe("openapi_no_operation");
    expect(res.json.error.message).toMatch(/Product Search API/i);
    expect(res.json.error.message).toMatch(/Chain Tool/);
  });

  it("answers a product question with products", async () => {
    const res = await predict("chainOnly", { question: "Show me headphones in the UK" });
    expect(res.status).toBe(200);
    expect(res.json.text).toMatch(/GBP/);
    expect(res.json.usedTools[0]).toMatchObject({
      tool: "productsUsingGET",
      toolInput: expect.objectContaining({ countryCode: "GB" }),
    });
  });

  it("turns an upstream 503 into 503 upstream_unavailable", async () => {
    productApi.setUnavailable(true);
    const res = await predict("chainOnly", { question: "Show me headphones in the UK" });
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe("upstream_unavailable");
  });
});

describe("request options", () => {
  it("prepends request history for this request only, never storing it", async () => {
    const res = await predict("conversation", {
      question: "What is my name?",
      history: [
        { role: "userMessage", content: "My name is Bob." },
        { role: "apiMessage", content: "Nice to meet you, Bob." },
      ],
    });
    expect(res.json.text).toContain("Bob");
    const stored = await (await getDb()).chatMessage.findMany({ where: { sessionId: res.json.sessionId } });
    expect(stored.map((m) => m.content)).not.toContain("My name is Bob.");
    expect(stored).toHaveLength(2);
  });

  it("applies overrides on the allow-list and refuses others naming the key", async () => {
    const ok = await predict("conversation", { question: "Hi", overrideConfig: { temperature: 0.1 } });
    expect(ok.status).toBe(200);
    expect(stub.requests.at(-1)?.body).toMatchObject({ temperature: 0.1 });
    const refused = await predict("conversation", { question: "Hi", overrideConfig: { maxTokens: 5 } });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toContain("overrideConfig.maxTokens");
  });

  it("uses chatId as the session when no sessionId is given", async () => {
    await predict("conversation", { question: "my name is Carla", chatId: "chat-carla" });
    const res = await predict("conversation", { question: "what is my name?", chatId: "chat-carla" });
    expect(res.json).toMatchObject({ chatId: "chat-carla", sessionId: "chat-carla" });
    expect(res.json.text).toContain("Carla");
  });
});

describe("validation and access", () => {
  it("names the bad field in a 400", async () => {
    const missing = await predict("conversation", {});
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toBe("Question is required unless an audio upload supplies it.");
    expect(missing.json.error.details[0].field).toBe("body.question");
    const badRole = await predict("conversation", { question: "x", history: [{ role: "system", content: "x" }] });
    expect(badRole.status).toBe(400);
    expect(badRole.json.error.message).toMatch(/^Role \(history item 1\)/);
    expect(badRole.json.error.details[0].field).toBe("body.history.0.role");
    const badSession = await predict("conversation", { question: "x", overrideConfig: { sessionId: "../../etc" } });
    expect(badSession.status).toBe(400);
    expect(badSession.json.error.message).toMatch(/^Session ID /);
    expect(badSession.json.error.details[0].field).toBe("body.overrideConfig.sessionId");
  });

  it("answers 400/404/403 for bad ids, unknown flows, private flows without a key and keys out of scope", async () => {
    expect((await predict("not-a-uuid", { question: "x" })).status).toBe(400);
    expect((await predict("3f1c2b9a-1111-4222-8333-944455556666", { question: "x" })).status).toBe(404);
    // Private to the public: the same 404 as an unknown id.
    expect((await predict("conversation", { question: "x" }, {})).status).toBe(404);
    const scoped = await createApiKey(
      { name: "scoped", permissions: ["predict"], chatflowIds: [flows.agent] },
      await fixtureKeyOwner(),
    );
    const out = await predict("conversation", { question: "x" }, auth.bearer(scoped.key));
    expect(out.status).toBe(403);
    const noPredict = await createApiKey(
      { name: "mgmt", permissions: ["chatflows"], chatflowIds: [] },
      await fixtureKeyOwner(),
    );
    expect((await predict("conversation", { question: "x" }, auth.bearer(noPredict.key))).status).toBe(403);
  });
});
