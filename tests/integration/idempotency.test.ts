// Idempotency-Key on prediction, vector upsert and every create route (lib/http/idempotency.ts,
// docs/api.md "Idempotency"): a retry with the same key and request gets the stored answer and
// runs nothing; another request under the key is 409; keys belong to one caller.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as apikeys from "../../app/api/v1/apikey/route";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as testCases from "../../app/api/v1/chatflows/[id]/tests/route";
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
import { createChatflow } from "../../lib/services/chatflows";
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
  /** What one run leaves behind: rows written or model calls made. */
  effects: () => Promise<number>;
};

let serial = 0;
const db = getDb;
/** A chatflow exported from Flowise 3.1.4 (read where the fixtures are kept, never copied). */
const flowiseConversation = () =>
  JSON.parse(
    fs.readFileSync(path.resolve(import.meta.dirname, "../../../shared/fixtures/flowise/conversation.json"), "utf8"),
  );
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

    const retry = await send(route, route.body(n), key);
    expect(retry.status).toBe(first.status);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.headers.get("content-type")).toBe(first.headers.get("content-type"));

    const other = await send(route, route.body(++serial), key);
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe("idempotency_key_reused");
    expect(await route.effects()).toBe(ran);
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
