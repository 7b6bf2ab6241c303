import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { call, auth, type RouteHandler } from "../support/http";
import { createModelStub, type ModelStub, type BrainRequest } from "../../dev/model-stub/server";
import { textOf } from "../../dev/model-stub/brain";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { createChatflow, listChatflowsFor } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { fixtureKey, fixtureKeyOwner, systemCaller } from "../../dev/callers";
import * as chatflowsRoute from "../../app/api/v1/chatflows/route";
import * as validateRoute from "../../app/api/v1/chatflows/[id]/validate/route";
import { getExecutionOrThrow, listExecutionsFor } from "../../lib/services/executions";
import { listExecutionsQuery } from "../../common/schemas/execution";
import { forgetProcessState } from "../../lib/state";
import { parseSse } from "../../dev/route-server";
import { edge, node } from "../../dev/agentflow-graph";

/**
 * Agentflows through the prediction route (issue 32): a refund approval that drafts with a model,
 * pauses for a person, then sends (proceed) or explains (reject). Model calls are counted on the
 * scripted stub, so "ran once" and "never ran" are facts, not timing.
 */

let stub: ModelStub;
let key: string;
let flowId: string;

function refundApproval(stubUrl: string) {
  return {
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
      node("rejected", "directReplyAgentflow", {
        directReplyMessage: "Not sent: {{approve}} ({{$flow.state.decision}}, asked {{question}})",
      }),
    ],
    edges: [
      edge("start", "output", "draft"),
      edge("model", "chatModel", "draft", "model"),
      edge("model", "chatModel", "send", "model"),
      edge("draft", "output", "approve"),
      edge("approve", "proceed", "send"),
      edge("approve", "reject", "rejected"),
    ],
  };
}

/** The stub answers every model call with what it was last asked, so answers show which node asked. */
const echoBrain = (req: BrainRequest) => {
  const users = req.messages.filter((m) => m.role === "user");
  return { content: `model: ${textOf(users.at(-1)?.content ?? "")}` };
};

const modelCalls = () => stub.requests.filter((r) => r.path.endsWith("/chat/completions")).length;

beforeAll(async () => {
  stub = await createModelStub({ brain: echoBrain });
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  flowId = (
    await createChatflow(
      { name: "Refund approval", type: "AGENTFLOW", graph: refundApproval(stub.url) as never },
      systemCaller,
    )
  ).id;
  key = (await createApiKey({ name: "predict", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner()))
    .key;
});
afterAll(() => stub.close());
beforeEach(() => stub.setBrain(echoBrain));

let route: { POST: RouteHandler } = prediction;
const predict = (body: object) =>
  call(route.POST, { method: "POST", params: { id: flowId }, headers: auth.bearer(key), body });

async function pausedRun(chatId: string) {
  const before = modelCalls();
  const res = await predict({ question: "Refund order 42", chatId });
  expect(res.status).toBe(200);
  expect(modelCalls() - before).toBe(1); // the draft, once
  return res;
}

describe("agentflow: human input", () => {
  it("a run reaching Human Input is stored paused and answers Flowise's action", async () => {
    const res = await pausedRun("chat-pause");
    expect(res.json.text).toBe("model: Refund order 42\n\nSend this refund?");
    expect(res.json.action).toMatchObject({
      mapping: { approve: "Proceed", reject: "Reject" },
      elements: [
        { type: "agentflowv2-approve-button", label: "Proceed" },
        { type: "agentflowv2-reject-button", label: "Reject" },
      ],
      data: { nodeId: "approve", nodeLabel: "Human Input" },
    });
    const row = await (await getDb()).execution.findUniqueOrThrow({ where: { id: res.json.executionId } });
    expect(row).toMatchObject({
      status: "paused",
      chatId: "chat-pause",
      chatflowId: flowId,
      state: { decision: "pending" },
      // What a takeover after a crash needs: the kind of chat; a paused run holds no lease.
      chatType: "EXTERNAL",
      leaseUntil: null,
    });
    expect(res.json.agentFlowExecutedData.map((n: { nodeId: string; status: string }) => [n.nodeId, n.status])).toEqual(
      [
        ["start", "FINISHED"],
        ["draft", "FINISHED"],
        ["approve", "STOPPED"],
      ],
    );
  });

  it("proceed continues from the node: nothing before it runs again, only the proceed branch runs", async () => {
    await pausedRun("chat-proceed");
    const before = modelCalls();
    const res = await predict({ chatId: "chat-proceed", humanInput: { type: "proceed", startNodeId: "approve" } });
    expect(res.status).toBe(200);
    expect(modelCalls() - before).toBe(1); // "send" only: the draft is not asked again
    expect(res.json.text).toBe("model: Send: model: Refund order 42");
    const ran = res.json.agentFlowExecutedData.map((n: { nodeId: string }) => n.nodeId);
    expect(ran).toEqual(["start", "draft", "approve", "approve", "send"]);
    expect(ran).not.toContain("rejected");
    const row = await (await getDb()).execution.findUniqueOrThrow({ where: { id: res.json.executionId } });
    expect(row).toMatchObject({ status: "finished", state: { decision: "sent" } });
  });

  it("reject runs only the reject branch, with the feedback; state and the first question survive", async () => {
    await pausedRun("chat-reject");
    const before = modelCalls();
    const res = await predict({
      chatId: "chat-reject",
      humanInput: { type: "reject", startNodeId: "approve", feedback: "too expensive" },
    });
    expect(res.status).toBe(200);
    expect(modelCalls() - before).toBe(0);
    expect(res.json.text).toBe("Not sent: too expensive (pending, asked Refund order 42)");
  });

  it("a second resume is 409; a chat with no run, or another chatflow's, is 404", async () => {
    await pausedRun("chat-twice");
    const first = await predict({ chatId: "chat-twice", humanInput: { type: "proceed", startNodeId: "approve" } });
    expect(first.status).toBe(200);
    const again = await predict({ chatId: "chat-twice", humanInput: { type: "proceed", startNodeId: "approve" } });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("conflict");
    const unknown = await predict({ chatId: "chat-never", humanInput: { type: "proceed", startNodeId: "approve" } });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ code: "not_found" });
  });

  it("a paused run expires after AGENTFLOW_PAUSED_RUN_TTL_HOURS: listed as expired, a resume is 409 saying so", async () => {
    process.env.AGENTFLOW_PAUSED_RUN_TTL_HOURS = "0.5";
    resetEnvForTests();
    try {
      const res = await pausedRun("chat-expire");
      const db = await getDb();
      const row = await db.execution.findUniqueOrThrow({ where: { id: res.json.executionId } });
      // Half an hour after it paused (the setting), not the default week.
      const ttl = row.expiresAt!.getTime() - row.updatedAt.getTime();
      expect(ttl).toBeGreaterThan(29 * 60_000);
      expect(ttl).toBeLessThanOrEqual(30 * 60_000);
      // Its expiry passes: moved into the past rather than waited for.
      await db.execution.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      const before = modelCalls();
      const late = await predict({ chatId: "chat-expire", humanInput: { type: "proceed", startNodeId: "approve" } });
      expect(late.status).toBe(409);
      expect(late.json.error).toMatchObject({
        code: "conflict",
        message:
          "The run of chat chat-expire can no longer be resumed: Expired: nobody answered its Human Input within 0.5 hours (AGENTFLOW_PAUSED_RUN_TTL_HOURS). Start a new run.",
      });
      expect(modelCalls()).toBe(before);
      const listed = await listExecutionsFor(
        systemCaller,
        listExecutionsQuery.parse({ agentflowId: flowId, status: "expired" }),
      );
      expect(listed.data.map((r) => r.id)).toEqual([row.id]);
      expect(listed.data[0]).toMatchObject({
        status: "expired",
        state: "TIMEOUT",
        error: expect.stringMatching(/^Expired: /),
      });
      // A second try says the same; a new question in the same chat starts a new run.
      expect(
        (await predict({ chatId: "chat-expire", humanInput: { type: "reject", startNodeId: "approve" } })).status,
      ).toBe(409);
      expect((await predict({ question: "Refund order 43", chatId: "chat-expire" })).json.action).toBeTruthy();
    } finally {
      delete process.env.AGENTFLOW_PAUSED_RUN_TTL_HOURS;
      resetEnvForTests();
    }
  });

  it("a paused run past its expiry (default: a week) reads as expired before anyone resumes it", async () => {
    const res = await pausedRun("chat-expire-listed");
    const db = await getDb();
    const row = await db.execution.findUniqueOrThrow({ where: { id: res.json.executionId } });
    // The default: a week.
    expect(row.expiresAt!.getTime() - row.updatedAt.getTime()).toBeGreaterThan(167 * 3_600_000);
    await db.execution.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const one = await getExecutionOrThrow(row.id, systemCaller);
    expect(one).toMatchObject({ status: "expired", state: "TIMEOUT" });
    expect(one.error).toContain("within 168 hours");
  });

  it("resumes after a restart: new process caches and modules, the run read from the database", async () => {
    await pausedRun("chat-restart");
    for (const name of ["builtFlows", "chatflowRows", "chatflowVersions"] as const) forgetProcessState(name);
    vi.resetModules();
    route = await import("../../app/api/v1/prediction/[id]/route");
    try {
      const before = modelCalls();
      const res = await predict({ chatId: "chat-restart", humanInput: { type: "proceed", startNodeId: "approve" } });
      expect(res.status).toBe(200);
      expect(modelCalls() - before).toBe(1);
      expect(res.json.text).toBe("model: Send: model: Refund order 42");
    } finally {
      route = prediction;
    }
  });

  it("streams Flowise's progress events, the description as tokens and the action", async () => {
    const res = await predict({ question: "Refund order 7", chatId: "chat-sse", streaming: true });
    expect(res.status).toBe(200);
    const events = parseSse(res.text);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("start");
    expect(names).toContain("nextAgentFlow");
    expect(names).toContain("agentFlowExecutedData");
    expect(events.filter((e) => e.event === "agentFlowEvent").map((e) => e.data)).toEqual(["INPROGRESS", "STOPPED"]);
    const action = events.find((e) => e.event === "action");
    expect(action?.data).toMatchObject({ data: { nodeId: "approve" } });
    const tokens = events
      .filter((e) => e.event === "token")
      .map((e) => e.data)
      .join("");
    expect(tokens).toBe("model: Refund order 7\n\nSend this refund?");
    expect(names.at(-1)).toBe("end");
  });
});

describe("agentflow: structured output", () => {
  it("a model that breaks the structured output twice (one repair attempt) is 502 naming the node", async () => {
    const graph = {
      nodes: [
        node("start", "startAgentflow"),
        node("model", "chatOpenAICompatible", { baseURL: stub.url, model: "stub-model" }),
        node("classify", "llmAgentflow", {
          llmStructuredOutput: [{ key: "category", type: "enum", enumValues: "refund, other" }],
        }),
      ],
      edges: [edge("start", "output", "classify"), edge("model", "chatModel", "classify", "model")],
    };
    const id = (await createChatflow({ name: "Classify", type: "AGENTFLOW", graph: graph as never }, systemCaller)).id;
    const ask = () =>
      call(route.POST, { method: "POST", params: { id }, headers: auth.bearer(key), body: { question: "money back" } });
    const replies = ['{"category": "refund"}'];
    stub.setBrain(() => ({ content: replies.shift() ?? "not json at all" }));
    const ok = await ask();
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.json.text)).toEqual({ category: "refund" });
    const before = modelCalls();
    const broken = await ask();
    expect(broken.status).toBe(502);
    expect(broken.json.error.message).toContain('"LLM" (classify)');
    expect(modelCalls() - before).toBe(2);
  });
});

describe("agentflows as chatflows of another type", () => {
  it("lists by type (Flowise's ?type=AGENTFLOW) and answers the type", async () => {
    const agentflows = (await listChatflowsFor(systemCaller, { type: "AGENTFLOW" })).items;
    expect(agentflows.length).toBeGreaterThan(0);
    expect(agentflows.every((f) => f.type === "AGENTFLOW")).toBe(true);
    const chatflows = (await listChatflowsFor(systemCaller, { type: "CHATFLOW" })).items;
    expect(chatflows.some((f) => f.id === flowId)).toBe(false);
  });
});

describe("agentflows over the chatflows API", () => {
  it("GET /api/v1/chatflows?type=AGENTFLOW lists agentflows only; validate checks an agentflow as one", async () => {
    const adminKey = await fixtureKey("chatflows", ["chatflows"]);
    const get = (path: string) => call(chatflowsRoute.GET, { path, headers: auth.bearer(adminKey) });
    const list = await get("/api/v1/chatflows?type=AGENTFLOW");
    expect(list.status).toBe(200);
    expect(list.json.map((f: { id: string }) => f.id)).toContain(flowId);
    expect(list.json.every((f: { type: string }) => f.type === "AGENTFLOW")).toBe(true);
    const bad = await get("/api/v1/chatflows?type=NOPE");
    expect(bad.status).toBe(400);
    const check = await call(validateRoute.GET, {
      method: "GET",
      params: { id: flowId },
      headers: auth.bearer(adminKey),
    });
    expect(check.json).toEqual({ valid: true, problems: [] });
  });
});

/** Start → Iteration over a, b, c (ask the model, then a person: proceed "ok", reject "no") → the results. */
function approvalPerItem(stubUrl: string) {
  const inside = (id: string, type: string, inputs: Record<string, unknown>) => ({
    ...node(id, type, inputs),
    parentNode: "each",
  });
  return {
    nodes: [
      node("start", "startAgentflow"),
      node("model", "chatOpenAICompatible", { baseURL: stubUrl, model: "stub-model", temperature: 0 }),
      node("each", "iterationAgentflow", { iterationInput: '["a", "b", "c"]' }),
      inside("ask", "llmAgentflow", { llmEnableMemory: false, llmUserMessage: "Check {{$iteration}}" }),
      inside("gate", "humanInputAgentflow", { humanInputDescription: "Approve {{$iteration}}?" }),
      inside("ok", "directReplyAgentflow", { directReplyMessage: "ok {{$iteration}}: {{ask}}" }),
      inside("no", "directReplyAgentflow", { directReplyMessage: "no {{$iteration}} ({{gate}})" }),
      node("after", "directReplyAgentflow", { directReplyMessage: "Results:\n{{each}}" }),
    ],
    edges: [
      edge("start", "output", "each"),
      edge("model", "chatModel", "ask", "model"),
      edge("ask", "output", "gate"),
      edge("gate", "proceed", "ok"),
      edge("gate", "reject", "no"),
      edge("each", "output", "after"),
    ],
  };
}

describe("agentflow: human input inside an Iteration", () => {
  let iterFlow: string;
  beforeAll(async () => {
    iterFlow = (
      await createChatflow(
        { name: "Approval per item", type: "AGENTFLOW", graph: approvalPerItem(stub.url) as never },
        systemCaller,
      )
    ).id;
  });
  const predictItems = (body: object) =>
    call(route.POST, { method: "POST", params: { id: iterFlow }, headers: auth.bearer(key), body });

  it("pauses inside one item and resumes exactly there: finished items are not run again, their outputs kept", async () => {
    const before = modelCalls();
    const first = await predictItems({ question: "Check the orders", chatId: "items" });
    expect(first.status, first.text).toBe(200);
    expect(first.json.action).toMatchObject({ data: { nodeId: "gate", nodeLabel: "Human Input" } });
    expect(first.json.text).toBe("model: Check a\n\nApprove a?");
    expect(modelCalls() - before).toBe(1);

    const second = await predictItems({ chatId: "items", humanInput: { type: "proceed", startNodeId: "gate" } });
    expect(second.status, second.text).toBe(200);
    expect(second.json.text).toBe("model: Check b\n\nApprove b?");
    // Only item b asked the model: item a was not run again.
    expect(modelCalls() - before).toBe(2);

    const third = await predictItems({
      chatId: "items",
      humanInput: { type: "reject", startNodeId: "gate", feedback: "out of stock" },
    });
    expect(third.json.text).toBe("model: Check c\n\nApprove c?");
    expect(modelCalls() - before).toBe(3);

    const last = await predictItems({ chatId: "items", humanInput: { type: "proceed", startNodeId: "gate" } });
    expect(last.status, last.text).toBe(200);
    expect(last.json.action).toBeUndefined();
    // Each item's output, the ones finished before a pause included, with its own {{$iteration}}.
    expect(last.json.text).toBe("Results:\nok a: model: Check a\nno b (out of stock)\nok c: model: Check c");
    expect(modelCalls() - before).toBe(3);
    const row = await (await getDb()).execution.findUniqueOrThrow({ where: { id: last.json.executionId } });
    expect(row.status).toBe("finished");
    expect((row.executedData as { nodeId: string; status: string }[]).map((n) => `${n.nodeId}:${n.status}`)).toEqual([
      "start:FINISHED",
      "each:STOPPED",
      "each:STOPPED",
      "each:STOPPED",
      "each:FINISHED",
      "after:FINISHED",
    ]);
    // A further resume finds nothing waiting.
    const again = await predictItems({ chatId: "items", humanInput: { type: "proceed", startNodeId: "gate" } });
    expect(again.status).toBe(409);
  });

  it("a resume naming the Iteration instead of the Human Input inside it is 409 naming the node to send", async () => {
    await predictItems({ question: "Check the orders", chatId: "items-wrong" });
    const res = await predictItems({ chatId: "items-wrong", humanInput: { type: "proceed", startNodeId: "each" } });
    expect(res.status).toBe(409);
    expect(res.json.error.message).toContain('send humanInput.startNodeId "gate"');
  });
});
