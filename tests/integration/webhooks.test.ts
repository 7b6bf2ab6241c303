// Issue 33: a flow's webhook. POST /api/v1/webhook/{id} runs the published version with the body as
// input: a question, the whole body, or an agentflow Start form's fields; signed calls when a secret
// is set (a wrong or stale signature is 401 and nothing runs); answered at once or 202 and polled.
// The scripted model counts its calls, so "nothing ran" is a count, not a timing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import { waitFor } from "../queue/support";
import { startServerModelStub } from "../support/server-model-stub";
import { exampleFlow } from "../../dev/flows";
import { textOf } from "../../dev/model-stub/brain";
import type { ModelStub } from "../../dev/model-stub/server";
import * as webhook from "../../app/api/v1/webhook/[id]/route";
import * as settings from "../../app/api/v1/chatflows/[id]/webhook/route";
import * as triggerRun from "../../app/api/v1/trigger-runs/[id]/route";
import { createChatflow } from "../../lib/services/chatflows";
import { publishVersion } from "../../lib/services/chatflow-versions";
import { createApiKey } from "../../lib/services/api-keys";
import { signWebhook } from "../../lib/services/webhooks";
import { getDb } from "../../lib/db/client";
import { systemCaller, userCaller } from "../../dev/callers";
import { setupFirstAdmin } from "../../lib/services/users";

let stub: ModelStub;
let key: string;
let flowId: string;
let draftFlowId: string;
let formFlowId: string;

const modelCalls = () => stub.requests.filter((r) => r.path.endsWith("/chat/completions")).length;
const runRows = async () => (await getDb()).triggerRun.count();

const configure = (id: string, body: object) =>
  call(settings.PUT, { method: "PUT", params: { id }, headers: auth.bearer(key), body });

const hook = (
  id: string,
  opts: { body?: unknown; rawBody?: string; headers?: Record<string, string>; query?: string } = {},
) =>
  call(webhook.POST, {
    method: "POST",
    path: `/api/v1/webhook/${id}${opts.query ?? ""}`,
    params: { id },
    headers: { "content-type": "application/json", ...opts.headers },
    ...(opts.rawBody !== undefined ? { rawBody: opts.rawBody } : { body: opts.body }),
  });

const signed = (secret: string, raw: string, at = Math.floor(Date.now() / 1000)) => ({
  "x-switchyard-timestamp": String(at),
  "x-switchyard-signature": `sha256=${signWebhook(secret, String(at), raw)}`,
});

beforeAll(async () => {
  stub = await startServerModelStub(
    {},
    {
      brain: (req) => ({
        content: `echo: ${textOf(req.messages.filter((m) => m.role === "user").at(-1)?.content ?? "")}`,
      }),
    },
  );
  const owner = userCaller(
    await setupFirstAdmin({ email: "hooks@example.invalid", name: "Hooks", password: "a long password 1" }),
  );
  key = (await createApiKey({ name: "hooks", permissions: ["chatflows"], chatflowIds: [] }, owner)).key;
  const graph = exampleFlow("conversation.json").graph as never;
  flowId = (await createChatflow({ name: "Hooked", graph }, owner)).id;
  await publishVersion(flowId, 1, owner);
  draftFlowId = (await createChatflow({ name: "Never published", graph }, owner)).id;
  const step = (id: string, type: string, inputs = {}) => ({ id, type, position: { x: 0, y: 0 }, data: { inputs } });
  const form = {
    nodes: [
      step("start", "startAgentflow", {
        startInputType: "formInput",
        formInputTypes: [
          { type: "string", label: "Customer", name: "customer" },
          { type: "string", label: "Plan", name: "plan" },
        ],
      }),
      step("reply", "directReplyAgentflow", { directReplyMessage: "Welcome {{$form.customer}} on {{$form.plan}}" }),
    ],
    edges: [
      { id: "e", source: "start", sourceHandle: "start:out:output", target: "reply", targetHandle: "reply:in:input" },
    ],
  };
  formFlowId = (await createChatflow({ name: "Form", type: "AGENTFLOW", graph: form as never }, owner)).id;
  await publishVersion(formFlowId, 1, owner);
});
afterAll(() => stub.close());

describe("a flow's webhook", () => {
  it("is off until turned on: 404 in words, nothing run", async () => {
    const before = modelCalls();
    const res = await hook(flowId, { body: { question: "hello" } });
    expect(res.status).toBe(404);
    expect(res.json.error.message).toMatch(/webhook is off/);
    expect(modelCalls()).toBe(before);
  });

  it("refuses a flow that was never published, saying so", async () => {
    expect((await configure(draftFlowId, { enabled: true })).status).toBe(200);
    const res = await hook(draftFlowId, { body: { question: "hello" } });
    expect(res.status).toBe(404);
    expect(res.json.error.message).toMatch(/no published version/);
  });

  it("turned on without a secret, runs the published flow with the body's question", async () => {
    const on = await configure(flowId, { enabled: true });
    expect(on.json).toMatchObject({
      enabled: true,
      hasSecret: false,
      published: true,
      path: `/api/v1/webhook/${flowId}`,
    });
    const before = modelCalls();
    const res = await hook(flowId, { body: { question: "order 42 shipped?" } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      text: "echo: order 42 shipped?",
      question: "order 42 shipped?",
      chatflowVersion: 1,
    });
    expect(res.json.chatMessageId).toBeTruthy();
    expect(modelCalls()).toBe(before + 1);
    const run = await (await getDb()).triggerRun.findFirstOrThrow({
      where: { chatflowId: flowId },
      orderBy: { createdAt: "desc" },
    });
    expect(run).toMatchObject({ source: "webhook", status: "succeeded", chatMessageId: res.json.chatMessageId });
  });

  it("answers 400 naming the field for a body without a question, and 415 for a body that is not JSON", async () => {
    const missing = await hook(flowId, { body: { text: "hi" } });
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toMatch(/^question:/);
    const text = await hook(flowId, { rawBody: "hi", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
  });

  it("with the input mode `body`, takes the whole body as the question", async () => {
    await configure(flowId, { inputMode: "body" });
    const raw = JSON.stringify({ event: "push", ref: "main" });
    const res = await hook(flowId, { rawBody: raw });
    expect(res.status).toBe(200);
    expect(res.json.text).toBe(`echo: ${raw}`);
    await configure(flowId, { inputMode: "question" });
  });

  it("refuses a body past the JSON cap with 413", async () => {
    const res = await hook(flowId, { rawBody: JSON.stringify({ question: "x".repeat(1024 * 1024 + 10) }) });
    expect(res.status).toBe(413);
  });
});

describe("a signed webhook", () => {
  let secret: string;

  it("answers the new secret once; reading the settings never shows it", async () => {
    const made = await configure(flowId, { rotateSecret: true });
    expect(made.json.hasSecret).toBe(true);
    secret = made.json.secret;
    expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const read = await call(settings.GET, { params: { id: flowId }, headers: auth.bearer(key) });
    expect(read.json).toMatchObject({ hasSecret: true });
    expect(read.text).not.toContain(secret);
  });

  it("refuses a call without a signature, with a wrong one, or a stale one: 401, nothing run, no run row", async () => {
    const raw = JSON.stringify({ question: "transfer the money" });
    const before = { calls: modelCalls(), rows: await runRows() };
    const unsigned = await hook(flowId, { rawBody: raw });
    const wrong = await hook(flowId, { rawBody: raw, headers: signed("whsec_not-the-secret", raw) });
    const otherBody = await hook(flowId, {
      rawBody: JSON.stringify({ question: "other" }),
      headers: signed(secret, raw),
    });
    const stale = await hook(flowId, {
      rawBody: raw,
      headers: signed(secret, raw, Math.floor(Date.now() / 1000) - 6 * 60),
    });
    for (const res of [unsigned, wrong, otherBody, stale]) {
      expect(res.status).toBe(401);
      expect(res.json.error.message).toMatch(/Nothing was run/);
    }
    expect(stale.json.error.message).toMatch(/five minutes/);
    expect(modelCalls()).toBe(before.calls);
    expect(await runRows()).toBe(before.rows);
  });

  it("runs a call signed with the secret over its timestamp and raw body", async () => {
    const raw = JSON.stringify({ question: "signed hello" });
    const res = await hook(flowId, { rawBody: raw, headers: signed(secret, raw) });
    expect(res.status).toBe(200);
    expect(res.json.text).toBe("echo: signed hello");
  });

  it("rotating makes the old secret fail; removing the secret lets unsigned calls in again", async () => {
    const raw = JSON.stringify({ question: "again" });
    const next = (await configure(flowId, { rotateSecret: true })).json.secret;
    expect(next).not.toBe(secret);
    expect((await hook(flowId, { rawBody: raw, headers: signed(secret, raw) })).status).toBe(401);
    expect((await hook(flowId, { rawBody: raw, headers: signed(next, raw) })).status).toBe(200);
    await configure(flowId, { removeSecret: true });
    expect((await hook(flowId, { rawBody: raw })).status).toBe(200);
  });
});

describe("an asynchronous webhook call", () => {
  it("answers 202 with the run to poll (?async=true and Prefer: respond-async), which ends with the answer", async () => {
    for (const opts of [{ query: "?async=true" }, { headers: { prefer: "respond-async" } }]) {
      const res = await hook(flowId, { body: { question: "later please" }, ...opts });
      expect(res.status).toBe(202);
      expect(res.json).toMatchObject({ status: "running", statusUrl: `/api/v1/trigger-runs/${res.json.runId}` });
      expect(res.headers.get("location")).toBe(res.json.statusUrl);
      const poll = () => call(triggerRun.GET, { params: { id: res.json.runId } });
      await waitFor(async () => (await poll()).json.status !== "running");
      const done = await poll();
      expect(done.json).toMatchObject({
        status: "succeeded",
        source: "webhook",
        answer: { text: "echo: later please" },
      });
      expect(done.json.chatMessageId).toBe(done.json.answer.chatMessageId);
    }
  });

  it("still checks the input before answering 202", async () => {
    const res = await hook(flowId, { body: {}, query: "?async=true" });
    expect(res.status).toBe(400);
    expect((await hook(flowId, { body: { question: "x" }, query: "?async=maybe" })).status).toBe(400);
  });

  it("answers 404 for an unknown run id", async () => {
    const res = await call(triggerRun.GET, { params: { id: "00000000-0000-4000-8000-000000000000" } });
    expect(res.status).toBe(404);
  });
});

describe("an agentflow whose Start takes a form", () => {
  it("takes the JSON object's fields as the form's, refusing unknown and missing fields by name", async () => {
    await configure(formFlowId, { enabled: true });
    const unknown = await hook(formFlowId, { body: { customer: "Ada", plan: "pro", coupon: "X" } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.message).toMatch(/^coupon: this flow's form has no such field/);
    const missing = await hook(formFlowId, { body: { customer: "Ada" } });
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toMatch(/^plan: this form field is required/);
    const ok = await hook(formFlowId, { body: { customer: "Ada", plan: "pro" } });
    expect(ok.status).toBe(200);
    expect(ok.json.text).toBe("Welcome Ada on pro");
    expect(ok.json.executionId).toBeTruthy();
  });
});

describe("a webhook's rate limit (per flow and client address)", () => {
  it("counts every call, a refused signature included; past the limit 429 with Retry-After, nothing run", async () => {
    const graph = exampleFlow("conversation.json").graph as never;
    const limitedId = (
      await createChatflow({ name: "Limited hook", graph, rateLimit: { max: 3, windowSec: 3600 } }, systemCaller)
    ).id;
    await publishVersion(limitedId, 1, systemCaller);
    const secret = (await configure(limitedId, { enabled: true, rotateSecret: true })).json.secret as string;
    const raw = JSON.stringify({ question: "limited" });
    const from = (ip: string, headers: Record<string, string>) =>
      hook(limitedId, { rawBody: raw, headers: { ...headers, "x-switchyard-client-ip": ip } });
    const before = modelCalls();

    const ok = await from("10.0.0.1", signed(secret, raw));
    expect(ok.status).toBe(200);
    const forged = await from("10.0.0.1", signed("whsec_guess", raw));
    const forgedAgain = await from("10.0.0.1", signed("whsec_guess", raw));
    expect([forged.status, forgedAgain.status]).toEqual([401, 401]);
    const limits = [ok, forged, forgedAgain].map((r) => [
      r.headers.get("x-ratelimit-limit"),
      r.headers.get("x-ratelimit-remaining"),
    ]);
    expect(limits).toEqual([
      ["3", "2"],
      ["3", "1"],
      ["3", "0"],
    ]);
    expect(Number(ok.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);

    const over = await from("10.0.0.1", signed(secret, raw));
    expect(over.status).toBe(429);
    expect(over.json.error.code).toBe("rate_limited");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(modelCalls()).toBe(before + 1);

    // Another client of the same flow has its own count; the limit is the flow's, not the server's.
    const other = await from("10.0.0.2", signed(secret, raw));
    expect(other.status).toBe(200);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("2");
  });
});
