// Issue 33, usage and cost: each answer's tokens (as the scripted model reported them, or estimated
// where it reported none), its cost at the price table of the moment, failed runs counted, and the
// Usage API's sums per day and per model, for whom the permission table allows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import { createModelStub, type BrainRequest, type ModelStub } from "../../dev/model-stub/server";
import { textOf } from "../../dev/model-stub/brain";
import { exampleFlow } from "../../dev/flows";
import { userCaller } from "../../dev/callers";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as usageRoute from "../../app/api/v1/usage/route";
import * as pricesRoute from "../../app/api/v1/usage/prices/route";
import * as messages from "../../app/api/v1/chatmessage/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { createUser, setupFirstAdmin } from "../../lib/services/users";
import { getDb } from "../../lib/db/client";
import { edge, node } from "../../dev/agentflow-graph";

const REPORTED = { prompt_tokens: 111, completion_tokens: 22 };
const NO_COUNTS_ANSWER = "An answer whose provider sent no token counts.";

/** The scripted model: reports REPORTED, or nothing for "[no-usage]", or fails for "[fail]". */
function brain(req: BrainRequest) {
  const asked = textOf(req.messages.filter((m) => m.role === "user").at(-1)?.content ?? "");
  if (asked.includes("[fail]")) return { error: { status: 500, message: "scripted failure" } };
  if (asked.includes("[no-usage]")) return { content: NO_COUNTS_ANSWER, usage: null };
  return { content: "Scripted answer.", usage: REPORTED };
}

let stub: ModelStub;
const who = {} as Record<"admin" | "ada" | "bob", Record<string, string>>;
const flows = {} as Record<"chat" | "agent" | "bobs", string>;
let adaKey: string;
let adaPredictKey: string;

/** Start → LLM (one model call, no callbacks of its own: counted through LangChain's implicit config). */
const agentGraph = (stubUrl: string) => ({
  nodes: [
    node("start", "startAgentflow"),
    node("model", "chatOpenAICompatible", { baseURL: stubUrl, model: "stub-model", temperature: 0 }),
    node("answer", "llmAgentflow", { llmMessages: [{ role: "system", content: "Answer briefly." }] }),
  ],
  edges: [edge("start", "output", "answer"), edge("model", "chatModel", "answer", "model")],
});

async function ask(flowId: string, question: string, headers = who.ada) {
  return call(prediction.POST, { method: "POST", params: { id: flowId }, headers, body: { question } });
}
const usage = (headers: Record<string, string>, query: string) =>
  call(usageRoute.GET, { path: `/api/v1/usage${query}`, headers });
const putPrices = (headers: Record<string, string>, prices: unknown) =>
  call(pricesRoute.PUT, { method: "PUT", path: "/api/v1/usage/prices", headers, body: { prices } });

beforeAll(async () => {
  stub = await createModelStub({ brain });
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "admin@usage.test", name: "Admin", password: "usage-password-1" });
  const ada = await createUser({ email: "ada@usage.test", name: "Ada", password: "usage-password-1", role: "builder" });
  const bob = await createUser({ email: "bob@usage.test", name: "Bob", password: "usage-password-1", role: "builder" });
  who.admin = await auth.session(admin.id);
  who.ada = await auth.session(ada.id);
  who.bob = await auth.session(bob.id);
  const conversation = exampleFlow("conversation.json").graph as never;
  flows.chat = (await createChatflow({ name: "Chat", graph: conversation }, userCaller(ada))).id;
  flows.agent = (
    await createChatflow({ name: "Agent", type: "AGENTFLOW", graph: agentGraph(stub.url) as never }, userCaller(ada))
  ).id;
  flows.bobs = (await createChatflow({ name: "Bob's", graph: conversation }, userCaller(bob))).id;
  adaKey = (await createApiKey({ name: "usage", permissions: ["chatflows"], chatflowIds: [] }, userCaller(ada))).key;
  adaPredictKey = (await createApiKey({ name: "run", permissions: ["predict"], chatflowIds: [] }, userCaller(ada))).key;
});
afterAll(() => stub.close());

describe("an answer's usage", () => {
  it("carries the tokens the model reported; unpriced, its cost is null (not 0)", async () => {
    const res = await ask(flows.chat, "Hello there");
    expect(res.status, res.text).toBe(200);
    expect(res.json.usage).toEqual({ promptTokens: 111, completionTokens: 22, costUsd: null });
  });

  it("is costed with the price table of the moment, and keeps that cost when prices change", async () => {
    const set = await putPrices(who.admin, [{ model: "stub-model", inputPerMTok: 2, outputPerMTok: 8 }]);
    expect(set.status, set.text).toBe(200);
    expect(set.json.prices).toContainEqual({ model: "stub-model", inputPerMTok: 2, outputPerMTok: 8, source: "admin" });
    const res = await ask(flows.chat, "Priced now");
    // 111 × $2/M + 22 × $8/M
    expect(res.json.usage).toEqual({ promptTokens: 111, completionTokens: 22, costUsd: 0.000398 });
    const stored = await (await getDb()).usageRecord.findUnique({ where: { chatMessageId: res.json.chatMessageId } });
    expect(stored).toMatchObject({ models: ["stub-model"], costUsd: 0.000398, estimated: false, error: null });
    // A later price does not change what was stored.
    expect((await putPrices(who.admin, [{ model: "stub-model", inputPerMTok: 20, outputPerMTok: 80 }])).status).toBe(
      200,
    );
    const again = await (await getDb()).usageRecord.findUnique({ where: { chatMessageId: res.json.chatMessageId } });
    expect(again?.costUsd).toBe(0.000398);
    expect((await putPrices(who.admin, [{ model: "stub-model", inputPerMTok: 2, outputPerMTok: 8 }])).status).toBe(200);
  });

  it("is estimated (4 characters a token) and marked so when the provider reports none", async () => {
    const res = await ask(flows.chat, "Counts please [no-usage]");
    expect(res.status, res.text).toBe(200);
    const sent = stub.requests.at(-1)!.body as { messages: { content: string }[] };
    const promptChars = sent.messages.reduce((n, m) => n + textOf(m.content as never).length, 0);
    expect(res.json.usage).toMatchObject({
      promptTokens: Math.ceil(promptChars / 4),
      completionTokens: Math.ceil(NO_COUNTS_ANSWER.length / 4),
      estimated: true,
    });
    expect(res.json.usage.costUsd).toBeCloseTo(
      (Math.ceil(promptChars / 4) * 2 + Math.ceil(NO_COUNTS_ANSWER.length / 4) * 8) / 1e6,
      10,
    );
  });

  it("of an agentflow is counted and stored with its run", async () => {
    const res = await ask(flows.agent, "Agent question");
    expect(res.status, res.text).toBe(200);
    expect(res.json.usage).toEqual({ promptTokens: 111, completionTokens: 22, costUsd: 0.000398 });
    const stored = await (await getDb()).usageRecord.findFirst({ where: { executionId: res.json.executionId } });
    expect(stored).toMatchObject({ chatflowId: flows.agent, promptTokens: 111, completionTokens: 22 });
  });

  it("a failed run is stored as an error, with no tokens", async () => {
    const res = await ask(flows.chat, "Please [fail]");
    expect(res.status).toBeGreaterThanOrEqual(500);
    const failed = await (await getDb()).usageRecord.findMany({
      where: { chatflowId: flows.chat, error: { not: null } },
    });
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ promptTokens: 0, completionTokens: 0, chatMessageId: null });
  });

  it("is shown with each answer in the Message API (Conversations)", async () => {
    const res = await call(messages.GET, {
      path: `/api/v1/chatmessage/${flows.chat}`,
      params: { id: flows.chat },
      headers: who.admin,
    });
    expect(res.status, res.text).toBe(200);
    const answers = (res.json as { role: string; usage?: unknown }[]).filter((m) => m.role === "apiMessage");
    expect(answers).toHaveLength(3);
    expect(answers.map((a) => a.usage)).toContainEqual(
      expect.objectContaining({ promptTokens: 111, completionTokens: 22, costUsd: 0.000398, models: ["stub-model"] }),
    );
    const questions = (res.json as { role: string; usage?: unknown }[]).filter((m) => m.role === "userMessage");
    expect(questions.every((q) => q.usage === undefined)).toBe(true);
  });
});

describe("GET /api/v1/usage", () => {
  it("sums a flow's answers per day: requests, errors, tokens, cost, latency percentiles", async () => {
    const res = await usage(who.ada, `?chatflowId=${flows.chat}&groupBy=day`);
    expect(res.status, res.text).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    // 30 days by default, every day listed (quiet ones as zero), today's holding the four runs.
    expect(res.json.groups.length).toBeGreaterThanOrEqual(30);
    const day = res.json.groups.find((g: { key: string }) => g.key === today);
    expect(day).toMatchObject({ requests: 4, errors: 1, unpricedRequests: 1 });
    expect(day.promptTokens).toBeGreaterThan(222);
    expect(day.p95LatencyMs).toBeGreaterThanOrEqual(day.p50LatencyMs);
    const { key: _key, ...figures } = day;
    expect(res.json.totals).toEqual(figures);
    expect(res.json.groups.filter((g: { requests: number }) => g.requests > 0)).toHaveLength(1);
  });

  it("sums per model; the caller's every flow without chatflowId", async () => {
    const res = await usage(who.ada, "?groupBy=model");
    expect(res.status, res.text).toBe(200);
    const byKey = Object.fromEntries(res.json.groups.map((g: { key: string }) => [g.key, g]));
    // Four answers by the stub model (chat ×3, agent ×1); the failed run called no model.
    expect(byKey["stub-model"]).toMatchObject({ requests: 4, errors: 0 });
    expect(byKey[""]).toMatchObject({ requests: 1, errors: 1 });
    expect(res.json.totals.requests).toBe(5);
    // Three priced answers (two at 0.000398, one estimated) and one unpriced: the cost is the priced ones'.
    expect(byKey["stub-model"]).toMatchObject({ unpricedRequests: 1 });
    expect(byKey["stub-model"].costUsd).toBeGreaterThan(0.000398 * 2);
    expect(res.json.totals.costUsd).toBe(byKey["stub-model"].costUsd);
  });

  it("shows builders only their own flows, keys with `chatflows` too; admins every flow", async () => {
    await ask(flows.bobs, "Bob asks", who.bob);
    expect((await usage(who.bob, "")).json.totals.requests).toBe(1);
    expect((await usage(who.bob, `?chatflowId=${flows.chat}`)).status).toBe(404);
    expect((await usage(auth.bearer(adaKey), "")).json.totals.requests).toBe(5);
    expect((await usage(auth.bearer(adaPredictKey), "")).status).toBe(403);
    expect((await usage(who.admin, "")).json.totals.requests).toBe(6);
    expect((await usage({}, "")).status).toBe(401);
  });

  it("refuses bad dates and ranges with a 400 naming them", async () => {
    const bad = await usage(who.ada, "?from=yesterday");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json.error)).toContain("from");
    const reversed = await usage(who.ada, "?from=2026-03-02&to=2026-03-01");
    expect(reversed.status).toBe(400);
    expect(JSON.stringify(reversed.json.error)).toMatch(/from.*to|must be before/);
    const wide = await usage(who.ada, "?from=2024-01-01&to=2026-01-01");
    expect(wide.status).toBe(400);
    expect(bad.json.error.code).toBe("validation_failed");
    expect(JSON.stringify(wide.json.error)).toContain("366 days");
    expect((await usage(who.ada, "?groupBy=week")).status).toBe(400);
    expect((await usage(who.ada, "?chatflowId=nope")).status).toBe(400);
  });

  it("answers a past range with no answers as zero days", async () => {
    const res = await usage(who.ada, `?chatflowId=${flows.chat}&from=2026-01-01&to=2026-01-03`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.groups.map((g: { key: string }) => g.key)).toEqual(["2026-01-01", "2026-01-02", "2026-01-03"]);
    expect(res.json.totals).toMatchObject({ requests: 0, costUsd: null, p50LatencyMs: null });
  });
});

describe("the price table", () => {
  it("is read by builders, with defaults for common models, and edited by admins only", async () => {
    const res = await call(pricesRoute.GET, { path: "/api/v1/usage/prices", headers: who.ada });
    expect(res.status, res.text).toBe(200);
    const names = res.json.prices.map((p: { model: string }) => p.model);
    for (const m of [
      "gpt-4o",
      "gpt-4o-mini",
      "gpt-4.1",
      "o3",
      "o4-mini",
      "claude-sonnet-4",
      "gemini-2.5-pro",
      "mistral-large",
    ])
      expect(names).toContain(m);
    expect((await putPrices(who.ada, [])).status).toBe(403);
    expect((await putPrices(auth.bearer(adaKey), [])).status).toBe(403);
  });

  it("refuses bad prices and changes nothing", async () => {
    const before = (await call(pricesRoute.GET, { path: "/api/v1/usage/prices", headers: who.admin })).json;
    const negative = await putPrices(who.admin, [{ model: "x", inputPerMTok: -1, outputPerMTok: 1 }]);
    expect(negative.status).toBe(400);
    expect(JSON.stringify(negative.json.error)).toContain("inputPerMTok");
    const twice = await putPrices(who.admin, [
      { model: "a", inputPerMTok: 1, outputPerMTok: 1 },
      { model: "A", inputPerMTok: 2, outputPerMTok: 2 },
    ]);
    expect(twice.status).toBe(400);
    const after = (await call(pricesRoute.GET, { path: "/api/v1/usage/prices", headers: who.admin })).json;
    expect(after).toEqual(before);
  });
});
