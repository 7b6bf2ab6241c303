import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { createApiKey } from "../../lib/services/api-keys";
import { setupFirstAdmin } from "../../lib/services/users";
import { createChatflow } from "../../lib/services/chatflows";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { parseSse } from "../../dev/route-server";
import { edge, node } from "../../dev/agentflow-graph";

/**
 * Issue 32: an anonymous visitor of a public agentflow (the widget, the full-page chat) is told its
 * steps (which node, how it ended, how long it took), never their data: the system prompt, the
 * messages, the state, what a step read or wrote. API keys and studio users get all of it; "show tool
 * calls to visitors" in the chatbot settings shows it to visitors too. The Human Input pause (what the
 * visitor must decide) is the visitor's.
 */

const SECRET_PROMPT = "Internal: refunds above 500 need the finance lead";
let stub: ModelStub;
let session: Record<string, string>;
let key: string;
let flowId: string;

beforeAll(async () => {
  stub = await createModelStub({ brain: () => ({ content: "Draft: refund 42 approved" }) });
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
  const graph = {
    nodes: [
      node("start", "startAgentflow", { startState: [{ key: "tier", value: "gold-internal" }] }),
      node("model", "chatOpenAICompatible", { baseURL: stub.url, model: "stub-model", temperature: 0 }),
      node("draft", "llmAgentflow", { llmMessages: [{ role: "system", content: SECRET_PROMPT }] }),
      node("approve", "humanInputAgentflow", { humanInputDescription: "Send this refund?" }),
      node("done", "directReplyAgentflow", { directReplyMessage: "Sent." }),
    ],
    edges: [
      edge("start", "output", "draft"),
      edge("model", "chatModel", "draft", "model"),
      edge("draft", "output", "approve"),
      edge("approve", "proceed", "done"),
    ],
  };
  flowId = (
    await createChatflow({ name: "Refunds", type: "AGENTFLOW", graph: graph as never, isPublic: true }, systemCaller)
  ).id;
  key = (await createApiKey({ name: "k", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner())).key;
});
afterAll(() => stub.close());

const predict = (headers: Record<string, string>, body: object) =>
  call(prediction.POST, {
    method: "POST",
    params: { id: flowId },
    headers: { "x-switchyard-client-ip": "10.0.0.9", ...headers },
    body: { question: "Refund order 42", ...body },
  });
const setToolCalls = async (on: boolean) =>
  expect(
    (
      await call(chatflowById.PUT, {
        method: "PUT",
        params: { id: flowId },
        headers: session,
        body: { chatbotConfig: { showToolCalls: on } },
      })
    ).status,
  ).toBe(200);
type Step = { nodeId: string; status: string; data: Record<string, unknown>; stateChange?: unknown; error?: unknown };

describe("an agentflow's steps as a visitor sees them", () => {
  it("JSON: steps with their nodes, statuses and times, no data; the pause to decide is there", async () => {
    await setToolCalls(false);
    const res = await predict({}, { chatId: "visitor-json" });
    expect(res.status).toBe(200);
    const steps = res.json.agentFlowExecutedData as Step[];
    expect(steps.map((s) => [s.nodeId, s.status])).toEqual([
      ["start", "FINISHED"],
      ["draft", "FINISHED"],
      ["approve", "STOPPED"],
    ]);
    for (const s of steps) {
      expect(s.data).toEqual({});
      expect(s).not.toHaveProperty("stateChange");
      expect(typeof (s as { timeMs?: unknown }).timeMs).toBe("number");
    }
    const body = JSON.stringify(res.json);
    expect(body).not.toContain(SECRET_PROMPT);
    expect(body).not.toContain("gold-internal");
    expect(res.json.action).toMatchObject({ data: { nodeId: "approve" } });
    // The visitor can still decide, and the run resumes.
    const resumed = await predict(
      {},
      { chatId: "visitor-json", humanInput: { type: "proceed", startNodeId: "approve" } },
    );
    expect(resumed.status).toBe(200);
    expect(resumed.json.text).toBe("Sent.");
    expect(JSON.stringify(resumed.json)).not.toContain(SECRET_PROMPT);
  });

  it("streamed: the agentFlowExecutedData events carry no data either", async () => {
    await setToolCalls(false);
    const res = await predict({}, { chatId: "visitor-sse", streaming: true });
    expect(res.status).toBe(200);
    const executed = parseSse(res.text).filter((e) => e.event === "agentFlowExecutedData");
    expect(executed.length).toBeGreaterThan(0);
    for (const e of executed) for (const s of e.data as Step[]) expect(s.data).toEqual({});
    expect(res.text).not.toContain(SECRET_PROMPT);
    expect(res.text).not.toContain("gold-internal");
  });

  it("API keys and studio users get the steps' data; so do visitors when the builder shows tool calls", async () => {
    await setToolCalls(false);
    for (const headers of [auth.bearer(key), session]) {
      const res = await predict(headers, { chatId: `owner-${Object.keys(headers)[0]}` });
      expect(JSON.stringify(res.json.agentFlowExecutedData)).toContain(SECRET_PROMPT);
    }
    await setToolCalls(true);
    const shown = await predict({}, { chatId: "visitor-shown" });
    expect(JSON.stringify(shown.json.agentFlowExecutedData)).toContain(SECRET_PROMPT);
  });
});
