import { encodeExecutionCursor } from "../../common/schemas/execution";
import { encodeCursor } from "../../common/schemas/pagination";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import { createModelStub, type BrainRequest, type ModelStub } from "../../dev/model-stub/server";
import { textOf } from "../../dev/model-stub/brain";
import { userCaller } from "../../dev/callers";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as executions from "../../app/api/v1/executions/route";
import * as executionById from "../../app/api/v1/executions/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { createUser, setupFirstAdmin } from "../../lib/services/users";
import { setModelPrices } from "../../lib/services/usage";
import { edge, node } from "../../dev/agentflow-graph";

/**
 * The Executions API (issue 32, point 6) through its real routes: agentflow runs made by the
 * prediction route (the scripted model stub answers), then listed with filters and pages, read node
 * by node, and deleted, each by whom the permission table allows.
 */

let stub: ModelStub;
const who = {} as Record<"admin" | "ada" | "bob", Record<string, string>>;
const flows = {} as Record<"approval" | "echo" | "bobs", string>;

/** Start → LLM draft → Human Input → (proceed) LLM send that sets state / (reject) Direct Reply. */
const approvalGraph = (stubUrl: string) => ({
  nodes: [
    node("start", "startAgentflow", { startState: [{ key: "decision", value: "pending" }] }),
    node("model", "chatOpenAICompatible", { baseURL: stubUrl, model: "stub-model", temperature: 0 }),
    node("draft", "llmAgentflow", { llmMessages: [{ role: "system", content: "Draft a refund note." }] }),
    node("approve", "humanInputAgentflow", { humanInputDescription: "Send this refund?" }),
    node("send", "llmAgentflow", {
      llmEnableMemory: false,
      llmUserMessage: "Send: {{draft}}",
      llmUpdateState: [{ key: "decision", value: "sent" }],
    }),
    node("rejected", "directReplyAgentflow", { directReplyMessage: "Not sent" }),
  ],
  edges: [
    edge("start", "output", "draft"),
    edge("model", "chatModel", "draft", "model"),
    edge("model", "chatModel", "send", "model"),
    edge("draft", "output", "approve"),
    edge("approve", "proceed", "send"),
    edge("approve", "reject", "rejected"),
  ],
});

/** Start → Direct Reply: a run without a model. */
const echoGraph = {
  nodes: [
    node("start", "startAgentflow"),
    node("reply", "directReplyAgentflow", { directReplyMessage: "{{question}}" }),
  ],
  edges: [edge("start", "output", "reply")],
};

const echoBrain = (req: BrainRequest) => ({
  content: `model: ${textOf(req.messages.filter((m) => m.role === "user").at(-1)?.content ?? "")}`,
});

async function run(flowId: string, headers: Record<string, string>, body: object) {
  const res = await call(prediction.POST, { method: "POST", params: { id: flowId }, headers, body });
  expect(res.status, res.text).toBe(200);
  return res.json as { executionId: string; text: string };
}

const list = (headers: Record<string, string>, query = "") =>
  call(executions.GET, { path: `/api/v1/executions${query}`, headers });
const getOne = (headers: Record<string, string>, id: string) =>
  call(executionById.GET, { params: { id }, path: `/api/v1/executions/${id}`, headers });
const deleteOne = (headers: Record<string, string>, id: string) =>
  call(executionById.DELETE, { method: "DELETE", params: { id }, headers });
const deleteMany = (headers: Record<string, string>, executionIds: string[]) =>
  call(executions.DELETE, { method: "DELETE", headers, body: { executionIds } });
const idsOf = (res: { json: { data: { id: string }[] } }) => res.json.data.map((e) => e.id);

/** Runs of the echo flow, in the order made: session s1, s1, s2, s2, s2. */
const echoRuns: string[] = [];
let paused: string;
let bobsRun: string;
let adaUser: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  stub = await createModelStub({ brain: echoBrain });
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  // A price for the scripted model, so runs have a cost (USD per million tokens).
  await setModelPrices([{ model: "stub-model", inputPerMTok: 3, outputPerMTok: 15 }]);
  const admin = await setupFirstAdmin({ email: "admin@runs.test", name: "Admin", password: "runs-password-1" });
  const ada = await createUser({ email: "ada@runs.test", name: "Ada", password: "runs-password-1", role: "builder" });
  const bob = await createUser({ email: "bob@runs.test", name: "Bob", password: "runs-password-1", role: "builder" });
  who.admin = await auth.session(admin.id);
  adaUser = ada;
  who.ada = await auth.session(ada.id);
  who.bob = await auth.session(bob.id);
  const make = async (name: string, graph: object, owner: typeof ada) =>
    (await createChatflow({ name, type: "AGENTFLOW", graph: graph as never }, userCaller(owner))).id;
  flows.approval = await make("Approval", approvalGraph(stub.url), ada);
  flows.echo = await make("Echo", echoGraph, ada);
  flows.bobs = await make("Bob's", echoGraph, bob);
  for (const sessionId of ["s1", "s1", "s2", "s2", "s2"])
    echoRuns.push(
      (await run(flows.echo, who.ada, { question: `hi ${sessionId}`, overrideConfig: { sessionId } })).executionId,
    );
  paused = (await run(flows.approval, who.ada, { question: "Refund order 42", chatId: "chat-approval" })).executionId;
  bobsRun = (await run(flows.bobs, who.bob, { question: "bob's" })).executionId;
});
afterAll(() => stub.close());

describe("GET /api/v1/executions", () => {
  it("lists the caller's runs newest first, without per-node data, with both status vocabularies", async () => {
    const res = await list(who.ada);
    expect(res.status, res.text).toBe(200);
    expect(idsOf(res)).toEqual([paused, ...[...echoRuns].reverse()]);
    expect(res.json.total).toBe(6);
    expect(res.json.nextCursor).toBeNull();
    const [first] = res.json.data;
    expect(first).toMatchObject({
      id: paused,
      agentflowId: flows.approval,
      agentflow: { id: flows.approval, name: "Approval" },
      chatId: "chat-approval",
      status: "paused",
      state: "STOPPED",
      nodeCount: 3,
    });
    expect(first).not.toHaveProperty("executionData");
    expect(first).not.toHaveProperty("action");
    expect(res.json.data[1]).toMatchObject({ status: "finished", state: "FINISHED", nodeCount: 2 });
  });

  it("filters by flow (agentflowId or chatflowId), session, status in either vocabulary, and dates", async () => {
    expect(idsOf(await list(who.ada, `?agentflowId=${flows.echo}`))).toHaveLength(5);
    expect(idsOf(await list(who.ada, `?chatflowId=${flows.approval}`))).toEqual([paused]);
    expect(idsOf(await list(who.ada, `?agentflowId=${flows.echo}&chatflowId=${flows.approval}`))).toEqual([]);
    const s1 = await list(who.ada, `?chatflowId=${flows.echo}&sessionId=s1`);
    expect(idsOf(s1)).toEqual([echoRuns[1], echoRuns[0]]);
    expect(s1.json.total).toBe(2);
    expect(idsOf(await list(who.ada, "?state=STOPPED"))).toEqual([paused]);
    expect(idsOf(await list(who.ada, "?status=paused"))).toEqual([paused]);
    expect(idsOf(await list(who.ada, "?state=FINISHED"))).toHaveLength(5);
    expect(idsOf(await list(who.ada, "?status=error"))).toEqual([]);
    expect(idsOf(await list(who.ada, "?startDate=2099-01-01"))).toEqual([]);
    expect(idsOf(await list(who.ada, "?endDate=2000-01-01"))).toEqual([]);
    expect(idsOf(await list(who.ada, `?startDate=2000-01-01&endDate=2099-01-01`))).toHaveLength(6);
    const bad = await list(who.ada, "?status=done");
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain("INPROGRESS");
  });

  it("pages with cursor (each run once, in order) and with Flowise's page", async () => {
    const seen: string[] = [];
    let cursor: string | null = "";
    let pages = 0;
    while (cursor !== null) {
      const res = await list(who.ada, `?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.length).toBeLessThanOrEqual(2);
      expect(res.json.total).toBe(6);
      seen.push(...idsOf(res));
      cursor = res.json.nextCursor;
      expect(res.headers.get("x-next-cursor")).toBe(cursor);
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([paused, ...[...echoRuns].reverse()]);
    expect(idsOf(await list(who.ada, "?limit=2&page=2"))).toEqual(seen.slice(2, 4));
    expect((await list(who.ada, "?limit=101")).status).toBe(400);
    expect((await list(who.ada, "?cursor=not-a-cursor")).status).toBe(400);
    const cursorOfPaused = encodeExecutionCursor({ createdAt: new Date(), id: paused });
    expect((await list(who.ada, `?cursor=${cursorOfPaused}&page=2`)).status).toBe(400);
    // The cursor is opaque: the old `<ms>_<id>` form, or another list's cursor, is 400.
    expect((await list(who.ada, `?cursor=${Date.now()}_${paused}`)).status).toBe(400);
    expect((await list(who.ada, `?cursor=${encodeCursor("chatflows", { key: 1, id: paused })}`)).status).toBe(400);
  });

  it("shows builders their own flows' runs, an API key those of its scope, admins every run", async () => {
    expect(idsOf(await list(who.bob))).toEqual([bobsRun]);
    expect(idsOf(await list(who.bob, `?agentflowId=${flows.echo}`))).toEqual([]);
    const all = idsOf(await list(who.admin, "?limit=100"));
    expect(all).toEqual(expect.arrayContaining([bobsRun, paused, ...echoRuns]));
    const ada = userCaller(adaUser);
    const scoped = await createApiKey(
      { name: "echo only", permissions: ["chatflows"], chatflowIds: [flows.echo] },
      ada,
    );
    const byKey = await list(auth.bearer(scoped.key));
    expect(idsOf(byKey)).toEqual([...echoRuns].reverse());
    expect((await getOne(auth.bearer(scoped.key), paused)).status).toBe(404);
    const runner = await createApiKey({ name: "predict only", permissions: ["predict"], chatflowIds: [] }, ada);
    expect((await list(auth.bearer(runner.key))).status).toBe(403);
  });
});

describe("GET /api/v1/executions/{id}", () => {
  it("a paused run: node by node, its flow state and the action it waits for", async () => {
    const res = await getOne(who.ada, paused);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      id: paused,
      status: "paused",
      state: "STOPPED",
      flowState: { decision: "pending" },
      action: {
        mapping: { approve: "Proceed", reject: "Reject" },
        data: { nodeId: "approve", nodeLabel: "Human Input" },
      },
      finishedAt: null,
    });
    const nodes = res.json.executionData;
    expect(nodes.map((n: { nodeId: string; status: string }) => [n.nodeId, n.status])).toEqual([
      ["start", "FINISHED"],
      ["draft", "FINISHED"],
      ["approve", "STOPPED"],
    ]);
    expect(nodes[1].data.output).toMatchObject({ content: "model: Refund order 42" });
    expect(nodes[1].previousNodeIds).toEqual(["start"]);
    expect(typeof nodes[1].timeMs).toBe("number");
    expect(typeof nodes[1].startedAt).toBe("string");
  });

  it("the model usage of each node that called a model, priced, and the run's total as its answers recorded it", async () => {
    const res = await getOne(who.ada, paused);
    const [start, draft, approve] = res.json.executionData;
    expect(start.usage).toBeUndefined();
    expect(approve.usage).toBeUndefined();
    const { promptTokens, completionTokens } = draft.usage;
    expect(promptTokens).toBeGreaterThan(0);
    expect(completionTokens).toBeGreaterThan(0);
    expect(draft.usage).toEqual({
      promptTokens,
      completionTokens,
      estimated: false,
      models: [{ model: "stub-model", promptTokens, completionTokens }],
      costUsd: (promptTokens * 3 + completionTokens * 15) / 1e6,
    });
    expect(draft.tokens).toEqual({ promptTokens, completionTokens });
    // The paused answer was recorded with the run: its usage is the draft's.
    expect(res.json.usage).toEqual({
      promptTokens,
      completionTokens,
      estimated: false,
      costUsd: draft.usage.costUsd,
      models: ["stub-model"],
      answers: 1,
    });
    // A run that called no model: its answer recorded with no tokens and no cost.
    const echo = await getOne(who.ada, echoRuns[0]!);
    expect(echo.json.usage).toMatchObject({ promptTokens: 0, completionTokens: 0, costUsd: 0, answers: 1 });
    expect(echo.json.executionData.some((n: { usage?: unknown }) => n.usage)).toBe(false);
  });

  it("after proceed: finished, the state change of the node that made it, no action", async () => {
    await run(flows.approval, who.ada, {
      chatId: "chat-approval",
      humanInput: { type: "proceed", startNodeId: "approve" },
    });
    const res = await getOne(who.ada, paused);
    expect(res.json).toMatchObject({
      status: "finished",
      state: "FINISHED",
      action: null,
      flowState: { decision: "sent" },
    });
    expect(res.json.finishedAt).toEqual(res.json.stoppedDate);
    const send = res.json.executionData.find((n: { nodeId: string }) => n.nodeId === "send");
    expect(send).toMatchObject({ status: "FINISHED", stateChange: { decision: "sent" } });
    expect(send.data.output.content).toBe("model: Send: model: Refund order 42");
    expect(res.json.executionData.some((n: { nodeId: string }) => n.nodeId === "rejected")).toBe(false);
    // Two answers now (paused, then resumed): the run's total is both nodes' usage.
    const draft = res.json.executionData.find((n: { nodeId: string }) => n.nodeId === "draft");
    expect(send.usage.promptTokens).toBeGreaterThan(0);
    expect(res.json.usage).toMatchObject({
      promptTokens: draft.usage.promptTokens + send.usage.promptTokens,
      completionTokens: draft.usage.completionTokens + send.usage.completionTokens,
      answers: 2,
    });
    expect(res.json.usage.costUsd).toBeCloseTo(draft.usage.costUsd + send.usage.costUsd, 10);
  });

  it("another builder's run is 404, like an unknown one; admins read it", async () => {
    const res = await getOne(who.bob, paused);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
    expect((await getOne(who.ada, "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b")).status).toBe(404);
    expect((await getOne(who.admin, bobsRun)).status).toBe(200);
  });
});

describe("DELETE /api/v1/executions", () => {
  it("deletes one run; another builder can delete none of the owner's", async () => {
    const target = echoRuns[0]!;
    const refused = await deleteOne(who.bob, target);
    expect(refused.status).toBe(404);
    expect((await getOne(who.ada, target)).status).toBe(200);
    const res = await deleteOne(who.ada, target);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ success: true, deletedCount: 1 });
    expect((await getOne(who.ada, target)).status).toBe(404);
    expect(idsOf(await list(who.ada, `?agentflowId=${flows.echo}`))).not.toContain(target);
  });

  it("deletes many (Flowise's executionIds): all or none", async () => {
    const mixed = await deleteMany(who.ada, [echoRuns[1]!, bobsRun]);
    expect(mixed.status).toBe(404);
    expect(mixed.json.error.message).toContain(bobsRun);
    expect((await getOne(who.ada, echoRuns[1]!)).status).toBe(200);
    const res = await deleteMany(who.ada, [echoRuns[1]!, echoRuns[2]!]);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ success: true, deletedCount: 2 });
    expect(idsOf(await list(who.ada, `?agentflowId=${flows.echo}`))).toEqual([echoRuns[4], echoRuns[3]]);
    expect((await deleteMany(who.ada, [])).status).toBe(400);
    // Admins delete any builder's run.
    expect((await deleteMany(who.admin, [bobsRun])).json).toEqual({ success: true, deletedCount: 1 });
    expect(idsOf(await list(who.bob))).toEqual([]);
  });
});
