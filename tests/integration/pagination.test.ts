// One cursor pagination on every list (common/schemas/pagination.ts, lib/db/keyset.ts, docs/api.md
// "Pages"): walking a list page by page sees every row once, even when rows are added between
// pages; bad limits and edited cursors are 400; without limit or cursor the list is whole, as before.
import { beforeAll, describe, expect, it } from "vitest";
import * as apikeys from "../../app/api/v1/apikey/route";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as testCases from "../../app/api/v1/chatflows/[id]/tests/route";
import * as versions from "../../app/api/v1/chatflows/[id]/versions/route";
import * as testRuns from "../../app/api/v1/chatflows/[id]/tests/runs/route";
import * as messages from "../../app/api/v1/chatmessage/[id]/route";
import * as sessions from "../../app/api/v1/chatmessage/[id]/sessions/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as domains from "../../app/api/v1/domains/route";
import * as domainRuns from "../../app/api/v1/domains/runs/route";
import * as feedback from "../../app/api/v1/feedback/[id]/route";
import * as leads from "../../app/api/v1/leads/[id]/route";
import * as users from "../../app/api/v1/users/route";
import * as variables from "../../app/api/v1/variables/route";
import * as schedules from "../../app/api/v1/schedules/route";
import * as documentStores from "../../app/api/v1/document-store/store/route";
import { encodeCursor } from "../../common/schemas/pagination";
import { getDb } from "../../lib/db/client";
import { setupFirstAdmin } from "../../lib/services/users";
import { auth, call, type CallResult, type RouteHandler } from "../support/http";

const ADMIN = { email: "admin@pages.test", name: "Ada", password: "correct-horse-1" };
let admin: Record<string, string>;
let flowId: string;
let sessionsFlowId: string;
let serial = 0;
const uuid = () => crypto.randomUUID();

beforeAll(async () => {
  await setupFirstAdmin(ADMIN);
  admin = auth.basic(ADMIN.email, ADMIN.password);
  flowId = (await (await getDb()).chatflow.create({ data: { name: "pages", graph: { nodes: [], edges: [] } } })).id;
  sessionsFlowId = (await (await getDb()).chatflow.create({ data: { name: "sessions", graph: {} } })).id;
});

type Listed = {
  name: string;
  handler: RouteHandler;
  path: () => string;
  params?: () => Record<string, string>;
  /** Adds one row to the list; answers what identifies it in the answer. */
  add: () => Promise<string>;
  /** What identifies each row of an answer. */
  idsOf?: (json: unknown) => string[];
};

/** The smallest valid document store: one keyword store node. */
const KEYWORD_STORE_GRAPH = {
  nodes: [{ id: "store", type: "keywordStore", position: { x: 0, y: 0 }, data: { inputs: {} } }],
  edges: [],
};
const byId = (json: unknown) => (json as { id: string }[]).map((r) => r.id);
const db = getDb;

const LISTS: Listed[] = [
  {
    name: "GET /chatflows",
    handler: chatflows.GET as RouteHandler,
    path: () => "/api/v1/chatflows",
    add: async () => (await (await db()).chatflow.create({ data: { name: `flow ${++serial}`, graph: {} } })).id,
  },
  {
    name: "GET /apikey",
    handler: apikeys.GET as RouteHandler,
    path: () => "/api/v1/apikey",
    add: async () =>
      (
        await (
          await db()
        ).apiKey.create({
          data: { name: `key ${++serial}`, prefix: `p${serial}${uuid().slice(0, 6)}`, keyHash: uuid() },
        })
      ).id,
  },
  {
    name: "GET /credentials",
    handler: credentials.GET as RouteHandler,
    path: () => "/api/v1/credentials",
    add: async () =>
      (await (await db()).credential.create({ data: { name: `cred ${++serial}`, type: "openai", encrypted: "x" } })).id,
  },
  {
    name: "GET /schedules",
    handler: schedules.GET as RouteHandler,
    path: () => "/api/v1/schedules",
    // Inserted as rows (a disabled schedule starts no timer): the list's order, not the scheduler, is tested.
    add: async () =>
      (
        await (
          await db()
        ).flowSchedule.create({
          data: { chatflowId: flowId, name: `schedule ${++serial}`, cron: "0 9 * * *", enabled: false },
        })
      ).id,
  },
  {
    name: "GET /document-store/store",
    handler: documentStores.GET as RouteHandler,
    path: () => "/api/v1/document-store/store",
    add: async () =>
      (await (await db()).documentStore.create({ data: { name: `store ${++serial}`, graph: KEYWORD_STORE_GRAPH } })).id,
  },
  {
    name: "GET /variables (by name)",
    handler: variables.GET as RouteHandler,
    path: () => "/api/v1/variables",
    add: async () =>
      // Names out of insertion order: a row added later may sort before the pages already read.
      (await (await db()).variable.create({ data: { name: `v_${(++serial * 7919) % 1000}_${serial}` } })).id,
  },
  {
    name: "GET /users",
    handler: users.GET as RouteHandler,
    path: () => "/api/v1/users",
    add: async () =>
      (
        await (
          await db()
        ).user.create({
          data: { email: `u${++serial}@pages.test`, name: `User ${serial}`, passwordHash: "x" },
        })
      ).id,
  },
  {
    name: "GET /chatflows/{id}/tests",
    handler: testCases.GET as RouteHandler,
    path: () => `/api/v1/chatflows/${flowId}/tests`,
    params: () => ({ id: flowId }),
    add: async () =>
      (
        await (
          await db()
        ).chatflowTestCase.create({
          data: {
            chatflowId: flowId,
            name: `case ${++serial}`,
            question: "q",
            expectations: [{ type: "status", value: 200 }],
          },
        })
      ).id,
  },
  {
    name: "GET /chatflows/{id}/tests/runs",
    handler: testRuns.GET as RouteHandler,
    path: () => `/api/v1/chatflows/${flowId}/tests/runs`,
    params: () => ({ id: flowId }),
    add: async () =>
      (
        await (
          await db()
        ).chatflowTestRun.create({ data: { chatflowId: flowId, version: 1, total: ++serial, cases: [] } })
      ).id,
  },
  {
    name: "GET /chatmessage/{id} (with X-Total-Count)",
    handler: messages.GET as RouteHandler,
    path: () => `/api/v1/chatmessage/${flowId}`,
    params: () => ({ id: flowId }),
    add: async () => {
      const chatId = `m${++serial}`;
      const row = await (await db()).chatMessage.create({
        data: { chatflowId: flowId, sessionId: chatId, chatId, role: "userMessage", content: "hello" },
      });
      return row.id;
    },
  },
  {
    name: "GET /chatmessage/{id}/sessions (an envelope: nextCursor in the body too)",
    handler: sessions.GET as RouteHandler,
    path: () => `/api/v1/chatmessage/${sessionsFlowId}/sessions`,
    params: () => ({ id: sessionsFlowId }),
    add: async () => {
      const sessionId = `s${++serial}`;
      await (await db()).chatMessage.create({
        data: { chatflowId: sessionsFlowId, sessionId, chatId: sessionId, role: "userMessage", content: "hi" },
      });
      return sessionId;
    },
    idsOf: (json) => (json as { data: { sessionId: string }[] }).data.map((s) => s.sessionId),
  },
  {
    name: "GET /chatflows/{id}/versions (an envelope: nextCursor in the body too)",
    handler: versions.GET as RouteHandler,
    path: () => `/api/v1/chatflows/${flowId}/versions`,
    params: () => ({ id: flowId }),
    add: async () =>
      String(
        (await (await db()).chatflowVersion.create({ data: { chatflowId: flowId, version: ++serial, graph: {} } }))
          .version,
      ),
    idsOf: (json) => (json as { versions: { version: number }[] }).versions.map((v) => String(v.version)),
  },
  {
    name: "GET /feedback/{id}",
    handler: feedback.GET as RouteHandler,
    path: () => `/api/v1/feedback/${flowId}`,
    params: () => ({ id: flowId }),
    add: async () => {
      const chatId = `c${++serial}`;
      const message = await (await db()).chatMessage.create({
        data: { chatflowId: flowId, sessionId: chatId, chatId, role: "apiMessage", content: "answer" },
      });
      const row = await (await db()).chatMessageFeedback.create({
        data: { chatflowId: flowId, chatId, messageId: message.id, rating: "THUMBS_UP" },
      });
      return row.id;
    },
  },
  {
    name: "GET /leads/{id}",
    handler: leads.GET as RouteHandler,
    path: () => `/api/v1/leads/${flowId}`,
    params: () => ({ id: flowId }),
    add: async () => (await (await db()).lead.create({ data: { chatflowId: flowId, chatId: `c${++serial}` } })).id,
  },
  {
    name: "GET /domains (an envelope: nextCursor in the body too)",
    handler: domains.GET as RouteHandler,
    path: () => "/api/v1/domains",
    add: async () =>
      (await (await db()).domain.create({ data: { name: `shop${++serial}.example.com`, isValid: true } })).id,
    idsOf: (json) => (json as { data: { id: string }[] }).data.map((d) => d.id),
  },
  {
    name: "GET /domains/runs",
    handler: domainRuns.GET as RouteHandler,
    path: () => "/api/v1/domains/runs",
    add: async () =>
      (await (await db()).domainAnalysisRun.create({ data: { chatflowId: flowId, total: ++serial } })).id,
  },
];

function get(list: Listed, query: string): Promise<CallResult> {
  return call(list.handler, { path: `${list.path()}${query}`, params: list.params?.() ?? {}, headers: admin });
}

describe.each(LISTS)("$name", (list) => {
  const idsOf = list.idsOf ?? byId;

  it("walks every page: each row once, rows added between pages do not shift them", async () => {
    for (let i = 0; i < 5; i++) await list.add();
    const whole = await get(list, "");
    expect(whole.status, whole.text).toBe(200);
    expect(whole.headers.get("x-next-cursor")).toBeNull();
    const before = idsOf(whole.json);
    expect(before.length).toBeGreaterThanOrEqual(5);

    const seen: string[] = [];
    let query = "?limit=2";
    let pages = 0;
    for (;;) {
      const page = await get(list, query);
      expect(page.status, page.text).toBe(200);
      const ids = idsOf(page.json);
      expect(ids.length).toBeLessThanOrEqual(2);
      seen.push(...ids);
      pages++;
      if (pages === 1) await list.add(); // a row arrives while the caller reads
      const next = page.headers.get("x-next-cursor");
      if (!next) break;
      expect(page.headers.get("link")).toBe(`<${list.path()}?limit=2&cursor=${next}>; rel="next"`);
      if (list.idsOf) expect((page.json as { nextCursor: string }).nextCursor).toBe(next);
      query = `?limit=2&cursor=${next}`;
    }
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(before.length / 2));
    expect(new Set(seen).size).toBe(seen.length);
    expect(before.filter((id) => !seen.includes(id))).toEqual([]);
  });

  it.each([
    ["0", "?limit=0"],
    ["past the most", "?limit=1001"],
    ["not a number", "?limit=ten"],
  ])("refuses a limit that is %s with 400", async (_what, query) => {
    const res = await get(list, query);
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/limit/i);
  });

  it("refuses an edited cursor, or one of another list, with 400", async () => {
    const first = await get(list, "?limit=1");
    const cursor = first.headers.get("x-next-cursor") as string;
    expect(cursor).toBeTruthy();
    const edited = `${cursor.slice(0, -2)}${cursor.endsWith("A") ? "B" : "A"}`;
    const foreign = encodeCursor("some-other-list", { key: 1, id: uuid() });
    for (const bad of [edited, foreign, "not a cursor!", "e30"]) {
      const res = await get(list, `?cursor=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.json.error.message).toMatch(/cursor/i);
    }
  });
});

describe("messages keep their page/limit and X-Total-Count beside the cursor", () => {
  const list = LISTS.find((l) => l.name.startsWith("GET /chatmessage")) as Listed;

  it("names the next page after a numbered page by cursor (without page), and refuses page with cursor", async () => {
    for (let i = 0; i < 3; i++) await list.add();
    const second = await get(list, "?page=2&limit=1");
    expect(second.status).toBe(200);
    expect(Number(second.headers.get("x-total-count"))).toBeGreaterThanOrEqual(3);
    expect(second.headers.get("access-control-expose-headers")).toBe("X-Total-Count, X-Next-Cursor, Link");
    const next = second.headers.get("x-next-cursor") as string;
    expect(second.headers.get("link")).toBe(`<${list.path()}?limit=1&cursor=${next}>; rel="next"`);
    const third = await get(list, `?limit=1&cursor=${next}`);
    const byPage = await get(list, "?page=3&limit=1");
    expect(third.json.map((m: { id: string }) => m.id)).toEqual(byPage.json.map((m: { id: string }) => m.id));
    const both = await get(list, `?page=2&cursor=${next}`);
    expect(both.status).toBe(400);
    expect(both.json.error.message).toMatch(/cursor/);
  });
});

describe("domains page by cursor in the name and createdAt orders", () => {
  const list = LISTS.find((l) => l.name.startsWith("GET /domains (")) as Listed;

  it("walks the name order, and refuses a cursor of another sort or with the analyzedAt sort", async () => {
    for (let i = 0; i < 3; i++) await list.add();
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const res = await get(list, `?sort=name&limit=2${next ? `&cursor=${next}` : ""}`);
      expect(res.status, res.text).toBe(200);
      seen.push(...res.json.data.map((d: { name: string }) => d.name));
      next = res.json.nextCursor;
    } while (next);
    expect(seen).toEqual([...seen].sort());
    const byName = (await get(list, "?sort=name&limit=1")).json.nextCursor as string;
    expect((await get(list, `?sort=createdAt&cursor=${byName}`)).status).toBe(400);
    expect((await get(list, `?sort=analyzedAt&cursor=${byName}`)).status).toBe(400);
    expect((await get(list, `?sort=name&page=2&cursor=${byName}`)).status).toBe(400);
  });
});
