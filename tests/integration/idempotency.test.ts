// Idempotency-Key on prediction, vector upsert, every create route and every route that starts
// work (test runs, domain analyses, publish, version restore, the OpenAI-compatible API, webhooks)
// (lib/http/idempotency.ts, docs/api.md "Idempotency"): a retry with the same key and request gets
// the stored answer and runs nothing; another request under the key is 409; keys belong to one caller.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as apikeys from "../../app/api/v1/apikey/route";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as testCases from "../../app/api/v1/chatflows/[id]/tests/route";
import * as testRun from "../../app/api/v1/chatflows/[id]/tests/run/route";
import * as publish from "../../app/api/v1/chatflows/[id]/publish/route";
import * as restore from "../../app/api/v1/chatflows/[id]/versions/[n]/restore/route";
import * as analyze from "../../app/api/v1/domains/analyze/route";
import * as chatCompletions from "../../app/api/v1/openai/chat/completions/route";
import * as responses from "../../app/api/v1/openai/responses/route";
import * as webhook from "../../app/api/v1/webhook/[id]/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as domains from "../../app/api/v1/domains/route";
import * as leads from "../../app/api/v1/leads/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as users from "../../app/api/v1/users/route";
import * as variables from "../../app/api/v1/variables/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, demoBrain, type ModelStub } from "../../dev/model-stub/server";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { claimIdempotencyKey, IDEMPOTENCY_TTL_MS } from "../../lib/services/idempotency";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow, updateChatflow } from "../../lib/services/chatflows";
import { publishVersion } from "../../lib/services/chatflow-versions";
import { chatflowTestRunQueue } from "../../lib/services/chatflow-tests/runs";
import { domainAnalysisQueue } from "../../lib/services/domains-analysis";
import { addDomains } from "../../lib/services/domains";
import { signWebhook, updateWebhookSettings } from "../../lib/services/webhooks";
import { setupFirstAdmin } from "../../lib/services/users";
import { multiStoreGraph } from "../support/docs-flows";
import { auth, call, type CallResult, type RouteHandler } from "../support/http";

const ADMIN = { email: "admin@idem.test", name: "Ada", password: "correct-horse-1" };
let stub: ModelStub;
let admin: Record<string, string>;
let keyA: Record<string, string>;
let keyB: Record<string, string>;
let chatFlowId: string;
let docsFlowId: string;
/** Two versions, never published: publish and restore. */
let versionsFlowId: string;
/** Two versions, no test cases: a test run finishes at once, without asking the model. */
let testedFlowId: string;
/** Published, webhook on without a secret. */
let hookFlowId: string;
let domainId: string;

beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  await setupFirstAdmin(ADMIN);
  admin = auth.basic(ADMIN.email, ADMIN.password);
  const flow = exampleFlow("conversation.json");
  chatFlowId = (
    await createChatflow(
      { name: "chat", graph: flow.graph as never, chatbotConfig: { leads: { status: true } } as never },
      systemCaller,
    )
  ).id;
  docsFlowId = (
    await createChatflow({ name: "docs", graph: multiStoreGraph({ chatUrl: stub.url }) as never }, systemCaller)
  ).id;
  const twoVersions = async (name: string) => {
    const id = (await createChatflow({ name, graph: flow.graph as never }, systemCaller)).id;
    await updateChatflow(
      id,
      { graph: exampleFlow("conversation.json").graph as never, versionMessage: "v2" },
      systemCaller,
    );
    return id;
  };
  versionsFlowId = await twoVersions("versions");
  testedFlowId = await twoVersions("tested");
  hookFlowId = (await createChatflow({ name: "hooked", graph: flow.graph as never }, systemCaller)).id;
  await publishVersion(hookFlowId, 1, systemCaller);
  await updateWebhookSettings(hookFlowId, { enabled: true }, systemCaller);
  await addDomains({ names: ["analysed.example.com"] });
  domainId = (await (await getDb()).domain.findFirstOrThrow({ where: { name: "analysed.example.com" } })).id;
  const owner = await fixtureKeyOwner();
  const all = ["predict", "upsert", "chatflows", "messages", "domains"] as const;
  keyA = auth.bearer((await createApiKey({ name: "a", permissions: [...all], chatflowIds: [] }, owner)).key);
  keyB = auth.bearer((await createApiKey({ name: "b", permissions: [...all], chatflowIds: [] }, owner)).key);
});
afterAll(() => stub.close());

const chatCalls = () => stub.requests.filter((r) => r.path.endsWith("/chat/completions")).length;

type Covered = {
  name: string;
  handler: RouteHandler;
  path: () => string;
  params?: () => Record<string, string>;
  headers: () => Record<string, string>;
  /** A body for request number `n` (bodies differ by n). */
  body: (n: number) => unknown;
  /** What one run leaves behind: rows written or model calls made (once background work has settled). */
  effects: () => Promise<number>;
  /**
   * After the first request, for a route whose second run would leave the same state (publishing a
   * version again): undoes its effect, so that a retry that ran again would show.
   */
  between?: () => Promise<void>;
};

let serial = 0;
const db = getDb;
/** A chatflow exported from Flowise 3.1.4 (read where the fixtures are kept, never copied). */
const flowiseConversation = () =>
  JSON.parse(
    fs.readFileSync(path.resolve(import.meta.dirname, "../../../shared/fixtures/flowise/conversation.json"), "utf8"),
  );
/** A UUID naming no domain, different for each n (an analysis skips unknown ids, and counts them). */
const unknownDomain = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const triggerRunsSettled = async () => {
  const db = await getDb();
  while ((await db.triggerRun.count({ where: { status: "running" } })) > 0) await new Promise((r) => setImmediate(r));
  return db.triggerRun.count();
};
const COVERED: Covered[] = [
  {
    name: "POST /prediction/{id}",
    handler: prediction.POST as RouteHandler,
    path: () => `/api/v1/prediction/${chatFlowId}`,
    params: () => ({ id: chatFlowId }),
    headers: () => keyA,
    body: (n) => ({ question: `Hello number ${n}`, streaming: false }),
    effects: async () => chatCalls(),
  },
  {
    name: "POST /vector/upsert/{id} (multipart: a retry picks a new boundary)",
    handler: upsert.POST as RouteHandler,
    path: () => `/api/v1/vector/upsert/${docsFlowId}`,
    params: () => ({ id: docsFlowId }),
    headers: () => keyA,
    body: (n) => {
      const form = new FormData();
      form.append("files", new Blob([`Note ${n}: parcels leave in ${n} days.`]), `note-${n}.txt`);
      form.append("stopNodeId", "keywordStore");
      return form;
    },
    effects: async () => (await db()).documentChunk.count(),
  },
  {
    name: "POST /chatflows",
    handler: chatflows.POST as RouteHandler,
    path: () => "/api/v1/chatflows",
    headers: () => keyA,
    body: (n) => ({ name: `flow ${n}` }),
    effects: async () => (await db()).chatflow.count(),
  },
  {
    name: "POST /chatflows/import",
    handler: importRoute.POST as RouteHandler,
    path: () => "/api/v1/chatflows/import",
    headers: () => keyA,
    body: (n) => ({ ...flowiseConversation(), name: `imported ${n}` }),
    effects: async () => (await db()).chatflow.count(),
  },
  {
    name: "POST /chatflows/{id}/tests",
    handler: testCases.POST as RouteHandler,
    path: () => `/api/v1/chatflows/${chatFlowId}/tests`,
    params: () => ({ id: chatFlowId }),
    headers: () => keyA,
    body: (n) => ({ name: `case ${n}`, question: "Hi", expectations: [{ type: "status", value: 200 }] }),
    effects: async () => (await db()).chatflowTestCase.count(),
  },
  {
    name: "POST /credentials",
    handler: credentials.POST as RouteHandler,
    path: () => "/api/v1/credentials",
    headers: () => admin,
    body: (n) => ({ name: `model key ${n}`, type: "openai", data: { apiKey: `sk-${n}` } }),
    effects: async () => (await db()).credential.count(),
  },
  {
    name: "POST /apikey",
    handler: apikeys.POST as RouteHandler,
    path: () => "/api/v1/apikey",
    headers: () => admin,
    body: (n) => ({ name: `key ${n}`, permissions: ["predict"] }),
    effects: async () => (await db()).apiKey.count(),
  },
  {
    name: "POST /variables",
    handler: variables.POST as RouteHandler,
    path: () => "/api/v1/variables",
    headers: () => admin,
    body: (n) => ({ name: `var_${n}`, value: String(n) }),
    effects: async () => (await db()).variable.count(),
  },
  {
    name: "POST /users",
    handler: users.POST as RouteHandler,
    path: () => "/api/v1/users",
    headers: () => admin,
    body: (n) => ({ email: `user${n}@idem.test`, name: `User ${n}`, password: "long-enough-pass-1" }),
    effects: async () => (await db()).user.count(),
  },
  {
    name: "POST /domains",
    handler: domains.POST as RouteHandler,
    path: () => "/api/v1/domains",
    headers: () => keyA,
    body: (n) => ({ name: `shop${n}.example.com` }),
    effects: async () => (await db()).domain.count(),
  },
  {
    name: "POST /leads",
    handler: leads.POST as RouteHandler,
    path: () => "/api/v1/leads",
    headers: () => keyA,
    body: (n) => ({ chatflowid: chatFlowId, chatId: `chat-${n}`, name: `Lead ${n}`, email: `lead${n}@idem.test` }),
    effects: async () => (await db()).lead.count(),
  },
  {
    name: "POST /chatflows/{id}/tests/run",
    handler: testRun.POST as RouteHandler,
    path: () => `/api/v1/chatflows/${testedFlowId}/tests/run`,
    params: () => ({ id: testedFlowId }),
    headers: () => keyA,
    body: (n) => ({ version: 1 + (n % 2) }),
    effects: async () => {
      await chatflowTestRunQueue().drained();
      return (await db()).chatflowTestRun.count();
    },
  },
  {
    name: "POST /domains/analyze",
    handler: analyze.POST as RouteHandler,
    path: () => "/api/v1/domains/analyze",
    headers: () => keyA,
    body: (n) => ({ chatflowId: chatFlowId, ids: [domainId, unknownDomain(n)] }),
    effects: async () => {
      await domainAnalysisQueue().drained();
      return (await db()).domainAnalysisRun.count();
    },
  },
  {
    name: "POST /chatflows/{id}/publish",
    handler: publish.POST as RouteHandler,
    path: () => `/api/v1/chatflows/${versionsFlowId}/publish`,
    params: () => ({ id: versionsFlowId }),
    headers: () => keyA,
    body: (n) => ({ version: 1 + (n % 2) }),
    effects: async () =>
      (await (await db()).chatflow.findUniqueOrThrow({ where: { id: versionsFlowId } })).publishedVersion ?? 0,
    // Unpublished again by someone else: a retry that published again would show.
    between: async () => {
      await (await db()).chatflow.update({ where: { id: versionsFlowId }, data: { publishedVersion: null } });
    },
  },
  {
    name: "POST /chatflows/{id}/versions/{n}/restore",
    handler: restore.POST as RouteHandler,
    path: () => `/api/v1/chatflows/${versionsFlowId}/versions/1/restore`,
    params: () => ({ id: versionsFlowId, n: "1" }),
    headers: () => keyA,
    body: (n) => ({ message: `Restored, take ${n}` }),
    effects: async () => (await db()).chatflowVersion.count({ where: { chatflowId: versionsFlowId } }),
  },
  {
    name: "POST /openai/chat/completions",
    handler: chatCompletions.POST as RouteHandler,
    path: () => "/api/v1/openai/chat/completions",
    headers: () => keyA,
    body: (n) => ({ model: chatFlowId, messages: [{ role: "user", content: `Hello number ${n}` }] }),
    effects: async () => chatCalls(),
  },
  {
    name: "POST /openai/responses",
    handler: responses.POST as RouteHandler,
    path: () => "/api/v1/openai/responses",
    headers: () => keyA,
    body: (n) => ({ model: chatFlowId, input: `Hello number ${n}` }),
    effects: async () => chatCalls(),
  },
  {
    name: "POST /webhook/{id} (no caller of its own: the flow's keys)",
    handler: webhook.POST as RouteHandler,
    path: () => `/api/v1/webhook/${hookFlowId}`,
    params: () => ({ id: hookFlowId }),
    headers: () => ({}),
    body: (n) => ({ question: `Hook number ${n}` }),
    effects: async () => chatCalls(),
  },
  {
    name: "POST /webhook/{id}?async=true (a retry gets the same run to poll)",
    handler: webhook.POST as RouteHandler,
    path: () => `/api/v1/webhook/${hookFlowId}?async=true`,
    params: () => ({ id: hookFlowId }),
    headers: () => ({}),
    body: (n) => ({ question: `Hook later ${n}` }),
    effects: triggerRunsSettled,
  },
];

function send(route: Covered, body: unknown, key: string | undefined, headers = route.headers()): Promise<CallResult> {
  return call(route.handler, {
    method: "POST",
    path: route.path(),
    params: route.params?.() ?? {},
    headers: { ...headers, ...(key === undefined ? {} : { "idempotency-key": key }) },
    body,
  });
}

describe.each(COVERED)("Idempotency-Key on $name", (route) => {
  it("runs once: a retry gets the stored answer, another body under the key is 409", async () => {
    const key = `key-${++serial}-${crypto.randomUUID()}`;
    const n = ++serial;
    const before = await route.effects();
    const first = await send(route, route.body(n), key);
    expect(first.status, first.text).toBeLessThan(300);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const ran = await route.effects();
    expect(ran).toBeGreaterThan(before);
    await route.between?.();
    const settled = await route.effects();

    const retry = await send(route, route.body(n), key);
    expect(retry.status).toBe(first.status);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.headers.get("content-type")).toBe(first.headers.get("content-type"));

    const other = await send(route, route.body(++serial), key);
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe("idempotency_key_reused");
    expect(await route.effects()).toBe(settled);
  });

  it.each([
    ["empty", ""],
    ["too long", "k".repeat(256)],
    ["not printable ASCII", "clé"],
  ])("refuses a key that is %s with 400 and runs nothing", async (_what, key) => {
    const before = await route.effects();
    const res = await send(route, route.body(++serial), key);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("idempotency_key_invalid");
    expect(await route.effects()).toBe(before);
  });
});

describe("Idempotency-Key rules", () => {
  const chatflowRoute = COVERED.find((r) => r.name === "POST /chatflows") as Covered;
  const predict = COVERED[0];

  it("a stored answer holding a secret shown once (a new API key) is encrypted at rest, and replays whole", async () => {
    const route = COVERED.find((r) => r.name === "POST /apikey") as Covered;
    const key = `secret-${crypto.randomUUID()}`;
    const body = route.body(++serial);
    const first = await send(route, body, key);
    expect(first.status, first.text).toBe(201);
    const secret = String(first.json.apiKey ?? first.json.key);
    expect(secret.length).toBeGreaterThan(10);
    const rows = await (await db()).idempotencyRecord.findMany({ where: { key } });
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0].body ?? new Uint8Array()).toString("utf8")).not.toContain(secret);
    const replay = await send(route, body, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
  });

  it("keys belong to one caller: another caller's same key runs its own request", async () => {
    const body = { name: "shared key flow" };
    const a = await send(chatflowRoute, body, "same-key-two-callers", keyA);
    const b = await send(chatflowRoute, body, "same-key-two-callers", keyB);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(b.json.id).not.toBe(a.json.id);
  });

  it("runs two same-key predictions sent at once only once (the other is 409 in progress, then replayed)", async () => {
    let entered!: () => void;
    const modelEntered = new Promise<void>((r) => {
      entered = r;
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    stub.setBrain(async () => {
      entered();
      await gate;
      return { content: "Answered once." };
    });
    try {
      const before = chatCalls();
      const body = { question: "Only once please", streaming: false };
      const first = send(predict, body, "concurrent-key");
      await modelEntered;
      const second = await send(predict, body, "concurrent-key");
      expect(second.status).toBe(409);
      expect(second.json.error.code).toBe("idempotency_in_progress");
      expect(second.headers.get("retry-after")).toBe("1");
      release();
      expect((await first).json.text).toBe("Answered once.");
      const third = await send(predict, body, "concurrent-key");
      expect(third.headers.get("idempotent-replayed")).toBe("true");
      expect(third.json.text).toBe("Answered once.");
      expect(chatCalls() - before).toBe(1);
    } finally {
      release();
      stub.setBrain(demoBrain);
    }
  });

  it("does not store a failed (5xx) answer: a retry with the key runs again", async () => {
    stub.setBrain(() => ({ error: { status: 401, message: "bad model key" } }));
    try {
      const before = chatCalls();
      const body = { question: "Will this fail?", streaming: false };
      const failed = await send(predict, body, "failing-key");
      expect(failed.status).toBeGreaterThanOrEqual(500);
      const retried = await send(predict, body, "failing-key");
      expect(retried.status).toBe(failed.status);
      expect(retried.headers.get("idempotent-replayed")).toBeNull();
      expect(chatCalls() - before).toBe(2);
    } finally {
      stub.setBrain(demoBrain);
    }
  });

  it("refuses a key on a streamed prediction with 400 before running it", async () => {
    const before = chatCalls();
    const res = await send(predict, { question: "Stream it", streaming: true }, "stream-key");
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: "idempotency_key_invalid",
      message: expect.stringMatching(/streaming/),
    });
    expect(chatCalls()).toBe(before);
  });

  it("refuses a key on a streamed OpenAI-compatible answer with 400 before running it", async () => {
    const before = chatCalls();
    for (const route of COVERED.filter((r) => r.name.startsWith("POST /openai/"))) {
      const res = await send(route, { ...(route.body(++serial) as object), stream: true }, `stream-${serial}`);
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({
        code: "idempotency_key_invalid",
        message: expect.stringMatching(/stream/),
      });
    }
    expect(chatCalls()).toBe(before);
  });

  it("gives a signed webhook's stored answer only to a caller whose signature passes", async () => {
    const id = (
      await createChatflow(
        { name: "signed hook", graph: exampleFlow("conversation.json").graph as never },
        systemCaller,
      )
    ).id;
    await publishVersion(id, 1, systemCaller);
    const secret = (await updateWebhookSettings(id, { enabled: true, rotateSecret: true }, systemCaller)).secret!;
    const raw = JSON.stringify({ question: "Signed and sent once" });
    const signedCall = (signature: string) => {
      const at = String(Math.floor(Date.now() / 1000));
      return call(webhook.POST as RouteHandler, {
        method: "POST",
        path: `/api/v1/webhook/${id}`,
        params: { id },
        headers: {
          "content-type": "application/json",
          "idempotency-key": "signed-key",
          "x-switchyard-timestamp": at,
          "x-switchyard-signature": `sha256=${signature || signWebhook(secret, at, raw)}`,
        },
        rawBody: raw,
      });
    };
    const before = chatCalls();
    const first = await signedCall("");
    expect(first.status, first.text).toBe(200);
    // A retry signs again (a new timestamp): the same key and body are the same request.
    const retry = await signedCall("");
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.text).toBe(first.text);
    const forged = await signedCall("0".repeat(64));
    expect(forged.status).toBe(401);
    expect(forged.text).not.toContain(first.json.text);
    expect(chatCalls() - before).toBe(1);
  });

  it("refuses a key from an anonymous caller of a public chatflow (no caller to keep it for)", async () => {
    const graph = exampleFlow("conversation.json").graph as never;
    const id = (await createChatflow({ name: "public", graph, isPublic: true }, systemCaller)).id;
    const before = chatCalls();
    const res = await call(prediction.POST as RouteHandler, {
      method: "POST",
      path: `/api/v1/prediction/${id}`,
      params: { id },
      headers: { "idempotency-key": "anon-key" },
      body: { question: "Hi" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/API key/);
    expect(chatCalls()).toBe(before);
  });

  it("forgets answers after 24 hours: an expired key runs again and old rows are cleaned", async () => {
    const scope = "user:expiry-test";
    const past = new Date(Date.now() - IDEMPOTENCY_TTL_MS - 60_000);
    const first = await claimIdempotencyKey({ scope, key: "old", fingerprint: "f1", now: past });
    expect(first.kind).toBe("run");
    await claimIdempotencyKey({ scope, key: "other-old", fingerprint: "f2", now: past });
    const again = await claimIdempotencyKey({ scope, key: "old", fingerprint: "f3" });
    expect(again.kind).toBe("run");
    const left = await (await db()).idempotencyRecord.findMany({ where: { scope } });
    expect(left.map((r) => r.key)).toEqual(["old"]);
  });
});
