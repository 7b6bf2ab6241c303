import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import type { Caller } from "@/common/access/callers";
import { systemCaller, userCaller } from "../../dev/callers";
import { createModelStub, type Brain, type ModelStub } from "../../dev/model-stub/server";
import * as domains from "../../app/api/v1/domains/route";
import * as analyze from "../../app/api/v1/domains/analyze/route";
import * as runById from "../../app/api/v1/domains/runs/[id]/route";
import * as runs from "../../app/api/v1/domains/runs/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { forgetProcessState } from "../../lib/state";
import { readExampleFlows } from "../../lib/services/examples";
import { createChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { setupFirstAdmin } from "../../lib/services/users";
import { analyseDomainJob, domainAnalysisQueue, extractJson } from "../../lib/services/domains-analysis";

const system: Caller = systemCaller;
/** Keys need a real owner: the admin. */
let keyOwner: Caller;
let stub: ModelStub;
let session: Record<string, string>;
let flowId: string;
const failing = new Map<string, number>(); // domain → model requests still to fail with 503
const refused = new Set<string>(); // domains the model answers with HTTP 400
const requestsFor = new Map<string, number>();

const analystBrain: Brain = (req) => {
  const text = JSON.stringify(req.messages);
  const domain = /Domain: ([a-z0-9.-]+)/.exec(text)?.[1] ?? "?";
  requestsFor.set(domain, (requestsFor.get(domain) ?? 0) + 1);
  if (refused.has(domain)) return { error: { status: 400, message: "bad request" } };
  const left = failing.get(domain) ?? 0;
  if (left !== 0) {
    failing.set(domain, left - 1);
    return { error: { status: 503, message: "overloaded" } };
  }
  if (domain.startsWith("plain")) return { content: `${domain} looks like a personal blog.` };
  const json = { summary: `${domain} sells things`, category: "e-commerce", audience: "shoppers", riskNotes: [] };
  return { content: `Here you go:\n\`\`\`json\n${JSON.stringify(json)}\n\`\`\`` };
};

beforeAll(async () => {
  stub = await createModelStub({ brain: analystBrain });
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  analyseDomainJob.backoffMs = 0;
  const admin = await setupFirstAdmin({ email: "admin@example.com", name: "Admin", password: "admin-pass-1" });
  keyOwner = userCaller(admin);
  session = await auth.session(admin.id);
  const example = readExampleFlows().find((f) => f.file === "domain-analyst.json")!;
  flowId = (await createChatflow({ name: example.name, graph: example.graph as never }, system)).id;
  await call(domains.POST, {
    method: "POST",
    headers: session,
    body: {
      names: ["shop.example.com", "plain.example.org", "flaky.example.net", "broken.example.io", "refused.example.com"],
    },
  });
  // POST never stores an invalid name: one stored before that rule (or by hand) is put in directly.
  await (await getDb()).domain.create({
    data: { name: "bad.invalidtld", isValid: false, validationError: "'.invalidtld' is not a known public suffix" },
  });
});
afterAll(() => stub.close());

const idsOf = async (...names: string[]) =>
  (await (await getDb()).domain.findMany({ where: { name: { in: names } }, orderBy: { name: "asc" } })).map(
    (d) => d.id,
  );
const domain = async (name: string) => await (await getDb()).domain.findUniqueOrThrow({ where: { name } });
const start = (body: object, headers = session) => call(analyze.POST, { method: "POST", headers, body });

describe("POST /api/v1/domains/analyze", () => {
  it("runs the example flow once per domain in the background and stores text and JSON", async () => {
    const res = await start({ chatflowId: flowId, ids: await idsOf("shop.example.com", "plain.example.org") });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ queued: 2, skipped: 0, run: { total: 2, chatflowId: flowId } });
    await domainAnalysisQueue().drained();
    const shop = await domain("shop.example.com");
    expect(shop).toMatchObject({ analysisStatus: "succeeded", analysisChatflowId: flowId, analysisError: null });
    expect(shop.analysis).toEqual({
      summary: "shop.example.com sells things",
      category: "e-commerce",
      audience: "shoppers",
      riskNotes: [],
    });
    expect(shop.analysisText).toContain("```json");
    expect(shop.analyzedAt).toBeInstanceOf(Date);
    const plain = await domain("plain.example.org");
    expect(plain).toMatchObject({
      analysisText: "plain.example.org looks like a personal blog.",
      analysis: null,
      analysisStatus: "succeeded",
    });
    const run = await call(runById.GET, { params: { id: res.json.run.id }, headers: session });
    expect(run.json).toMatchObject({
      status: "finished",
      total: 2,
      succeeded: 2,
      failed: 0,
      finishedAt: expect.any(String),
    });
    const listed = await call(domains.GET, { path: "/x?hasAnalysis=true&searchTerm=sells", headers: session });
    expect(listed.json.data.map((d: { name: string }) => d.name)).toEqual(["shop.example.com"]);
    expect(listed.json.data[0].analysis.json.category).toBe("e-commerce");
  });

  it("retries upstream errors; a domain that keeps failing keeps its error and its earlier analysis, and can be retried", async () => {
    failing.set("flaky.example.net", 2);
    failing.set("broken.example.io", -1); // always
    failing.set("shop.example.com", -1);
    refused.add("refused.example.com");
    const res = await start({
      chatflowId: flowId,
      ids: await idsOf("flaky.example.net", "broken.example.io", "shop.example.com", "refused.example.com"),
    });
    expect(res.json.queued).toBe(4);
    await domainAnalysisQueue().drained();

    expect(await domain("flaky.example.net")).toMatchObject({ analysisStatus: "succeeded", analysisError: null });
    const broken = await domain("broken.example.io");
    expect(broken).toMatchObject({ analysisStatus: "failed", analysisText: null, analyzedAt: null });
    expect(broken.analysisError).toMatch(/unavailable|503/);
    const shop = await domain("shop.example.com");
    expect(shop).toMatchObject({ analysisStatus: "failed", analysisText: expect.stringContaining("sells things") });
    const refusedRow = await domain("refused.example.com");
    expect(refusedRow.analysisStatus).toBe("failed");
    expect(refusedRow.analysisError).toMatch(/400/);
    // Three attempts for upstream trouble, one for a refusal (the SDK itself retries at most once).
    expect(requestsFor.get("broken.example.io")).toBeGreaterThanOrEqual(3);
    expect(requestsFor.get("refused.example.com")).toBeLessThanOrEqual(2);
    expect((await call(runById.GET, { params: { id: res.json.run.id }, headers: session })).json).toMatchObject({
      succeeded: 1,
      failed: 3,
      status: "finished",
    });

    const failed = await call(domains.GET, { path: "/x?analysisStatus=failed&sort=name", headers: session });
    expect(failed.json.data.map((d: { name: string }) => d.name)).toEqual([
      "broken.example.io",
      "refused.example.com",
      "shop.example.com",
    ]);

    failing.clear();
    refused.clear();
    const retry = await start({ chatflowId: flowId, filter: { analysisStatus: "failed" } });
    expect(retry.json.queued).toBe(3);
    await domainAnalysisQueue().drained();
    expect(await domain("broken.example.io")).toMatchObject({
      analysisStatus: "succeeded",
      analysisError: null,
      analysis: expect.objectContaining({ category: "e-commerce" }),
    });
    const recent = await call(runs.GET, { headers: session });
    expect(recent.json[0]).toMatchObject({ id: retry.json.run.id, succeeded: 3 });
  });

  it("skips invalid and unknown domains, and analyses what a filter matches", async () => {
    const [invalidId] = await idsOf("bad.invalidtld");
    const res = await start({ chatflowId: flowId, ids: [invalidId, "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b"] });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ run: null, queued: 0, skipped: 2 });
    await call(domains.POST, {
      method: "POST",
      headers: session,
      body: { names: ["new-one.example.com", "new-two.example.com"] },
    });
    const filtered = await start({ chatflowId: flowId, filter: { hasAnalysis: false, searchTerm: "new-" } });
    expect(filtered.json.queued).toBe(2);
    await domainAnalysisQueue().drained();
    const left = await call(domains.GET, { path: "/x?hasAnalysis=not_analyzed", headers: session });
    expect(left.json.data.map((d: { name: string }) => d.name)).toEqual(["bad.invalidtld"]);
  });

  it("checks the body, the chatflow and the caller", async () => {
    const [id] = await idsOf("shop.example.com");
    expect((await start({ chatflowId: "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b", ids: [id] })).status).toBe(404);
    const both = await start({ chatflowId: flowId, ids: [id], filter: {} });
    expect(both.status).toBe(400);
    expect((await start({ chatflowId: flowId })).status).toBe(400);
    const badFilter = await start({ chatflowId: flowId, filter: { hasAnalysis: "perhaps" } });
    expect(badFilter.json.error.details[0].field).toBe("body.filter.hasAnalysis");
    const predictKey = await createApiKey({ name: "p", permissions: ["predict"], chatflowIds: [] }, keyOwner);
    expect((await start({ chatflowId: flowId, ids: [id] }, auth.bearer(predictKey.key))).status).toBe(403);
    const otherFlow = (await createChatflow({ name: "other" }, system)).id;
    const scoped = await createApiKey({ name: "d", permissions: ["domains"], chatflowIds: [otherFlow] }, keyOwner);
    expect((await start({ chatflowId: flowId, ids: [id] }, auth.bearer(scoped.key))).status).toBe(403);
    expect(
      (await call(runById.GET, { params: { id: "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b" }, headers: session })).status,
    ).toBe(404);
  });
});

describe("after a restart", () => {
  it("domains left queued or running by an earlier process become failed and retryable", async () => {
    const db = await getDb();
    const run = await db.domainAnalysisRun.create({ data: { chatflowId: flowId, total: 2, status: "running" } });
    await db.domain.updateMany({
      where: { name: { in: ["plain.example.org", "new-one.example.com"] } },
      data: { analysisStatus: "running", analysisRunId: run.id },
    });
    // A new process: the in-memory queue is empty and recovery has not run yet.
    forgetProcessState("analysisRecovery");
    const failed = await call(domains.GET, { path: "/x?analysisStatus=failed&sort=name", headers: session });
    expect(
      failed.json.data.map((d: { name: string; analysisError: string | null }) => [d.name, d.analysisError]),
    ).toEqual([
      ["new-one.example.com", "Interrupted by a server restart: analyse again."],
      ["plain.example.org", "Interrupted by a server restart: analyse again."],
    ]);
    expect((await call(runById.GET, { params: { id: run.id }, headers: session })).json.status).toBe("finished");
    // Their earlier analyses are kept.
    expect((await domain("plain.example.org")).analysisText).toContain("personal blog");
  });
});

describe("extractJson", () => {
  it("reads a whole-JSON answer, a fenced block or an object inside prose; null otherwise", () => {
    expect(extractJson('{"a":1}')).toEqual({ a: 1 });
    expect(extractJson('Sure:\n```json\n{"a":2}\n```')).toEqual({ a: 2 });
    expect(extractJson('The result is {"a":3} as asked.')).toEqual({ a: 3 });
    expect(extractJson("no json here")).toBeNull();
    expect(extractJson("[1,2]")).toBeNull();
  });
});
