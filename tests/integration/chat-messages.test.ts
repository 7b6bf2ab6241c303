import { beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import type { Caller } from "@/common/access/callers";
import { systemCaller, userCaller } from "../../dev/callers";
import * as messages from "../../app/api/v1/chatmessage/[id]/route";
import * as sessions from "../../app/api/v1/chatmessage/[id]/sessions/route";
import { createUser, setupFirstAdmin } from "../../lib/services/users";
import { createChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { getDb } from "../../lib/db/client";

const ADMIN = { email: "admin@example.com", password: "admin-pass-1" };
const BUILDER = { email: "builder@example.com", password: "builder-pass-1" };
const UNKNOWN = "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b";
const system: Caller = systemCaller;
/** Keys need a real owner: the admin. */
let keyOwner: Caller;
let flowId: string;
let otherFlowId: string;
let basic: Record<string, string>;
const ids: Record<string, string> = {};

// Times of the seeded messages (UTC). Two sessions on 2025-03-01/02, one on 2025-03-03 (INTERNAL).
const seed = [
  {
    key: "a1",
    sessionId: "s-a",
    chatId: "c-a",
    role: "userMessage",
    content: "hello from a",
    at: "2025-03-01T08:00:00Z",
    chatType: "EXTERNAL",
  },
  {
    key: "a2",
    sessionId: "s-a",
    chatId: "c-a",
    role: "apiMessage",
    content: "hi a",
    at: "2025-03-01T08:00:01Z",
    chatType: "EXTERNAL",
  },
  {
    key: "b1",
    sessionId: "s-b",
    chatId: "c-b",
    role: "userMessage",
    content: "late question",
    at: "2025-03-01T23:30:00Z",
    chatType: "EXTERNAL",
  },
  {
    key: "b2",
    sessionId: "s-b",
    chatId: "c-b",
    role: "apiMessage",
    content: "late answer",
    at: "2025-03-02T00:30:00Z",
    chatType: "EXTERNAL",
  },
  {
    key: "c1",
    sessionId: "s-c",
    chatId: "c-c",
    role: "userMessage",
    content: "studio test",
    at: "2025-03-03T12:00:00Z",
    chatType: "INTERNAL",
  },
  {
    key: "c2",
    sessionId: "s-c",
    chatId: "c-c",
    role: "apiMessage",
    content: "studio answer",
    at: "2025-03-03T12:00:02Z",
    chatType: "INTERNAL",
  },
] as const;

beforeAll(async () => {
  keyOwner = userCaller(await setupFirstAdmin({ email: ADMIN.email, name: "Admin", password: ADMIN.password }));
  await createUser({ email: BUILDER.email, name: "Builder", password: BUILDER.password, role: "builder" });
  basic = auth.basic(ADMIN.email, ADMIN.password);
  flowId = (await createChatflow({ name: "Support" }, system)).id;
  otherFlowId = (await createChatflow({ name: "Other" }, system)).id;
  const db = await getDb();
  for (const m of seed) {
    const row = await db.chatMessage.create({
      data: {
        chatflowId: flowId,
        sessionId: m.sessionId,
        chatId: m.chatId,
        role: m.role,
        content: m.content,
        chatType: m.chatType,
        createdAt: new Date(m.at),
        memoryType: "Buffer Memory",
        ...(m.key === "a2"
          ? {
              usedTools: [{ tool: "search", toolInput: { q: "x" }, toolOutput: "ok" }],
              sourceDocuments: [{ pageContent: "doc" }],
            }
          : {}),
      },
    });
    ids[m.key] = row.id;
  }
  await db.chatMessage.create({
    data: { chatflowId: otherFlowId, sessionId: "s-a", chatId: "c-x", role: "userMessage", content: "elsewhere" },
  });
});

const get = (query = "", headers: Record<string, string> = basic, id = flowId) =>
  call(messages.GET, { params: { id }, path: `/api/v1/chatmessage/${id}${query ? `?${query}` : ""}`, headers });
const keys = (res: { json: { id: string }[] }) =>
  res.json.map((r) => Object.entries(ids).find(([, v]) => v === r.id)?.[0]);

describe("GET /api/v1/chatmessage/{id}", () => {
  it("without filters answers the whole chatflow, oldest first, in Flowise's field names, with X-Total-Count", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(keys(res)).toEqual(["a1", "a2", "b1", "b2", "c1", "c2"]);
    expect(res.headers.get("x-total-count")).toBe("6");
    expect(res.json[1]).toEqual({
      id: ids.a2,
      role: "apiMessage",
      chatflowid: flowId,
      content: "hi a",
      sessionId: "s-a",
      chatId: "c-a",
      chatType: "EXTERNAL",
      memoryType: "Buffer Memory",
      // Inserted directly here, without the version that answered (older answers have none).
      chatflowVersion: null,
      sourceDocuments: [{ pageContent: "doc" }],
      usedTools: [{ tool: "search", toolInput: { q: "x" }, toolOutput: "ok" }],
      fileUploads: null,
      createdDate: "2025-03-01T08:00:01.000Z",
      // Flowise's field: the answer's rating, none here.
      feedback: null,
    });
  });

  it("sorts DESC with sort or Flowise's order, case-insensitively", async () => {
    expect(keys(await get("sort=DESC"))).toEqual(["c2", "c1", "b2", "b1", "a2", "a1"]);
    expect(keys(await get("order=desc"))).toEqual(["c2", "c1", "b2", "b1", "a2", "a1"]);
    expect(keys(await get("sort=asc"))).toEqual(["a1", "a2", "b1", "b2", "c1", "c2"]);
  });

  it("filters by sessionId, chatId, chatType and messageId, alone and combined", async () => {
    expect(keys(await get("sessionId=s-b"))).toEqual(["b1", "b2"]);
    expect(keys(await get("chatId=c-a"))).toEqual(["a1", "a2"]);
    expect(keys(await get("chatType=INTERNAL"))).toEqual(["c1", "c2"]);
    expect(keys(await get("chatType=external&sort=DESC"))).toEqual(["b2", "b1", "a2", "a1"]);
    expect(keys(await get(`messageId=${ids.b2}`))).toEqual(["b2"]);
    expect(keys(await get("sessionId=s-a&chatType=INTERNAL"))).toEqual([]);
    expect(keys(await get("sessionId=s-c&chatType=INTERNAL&startDate=2025-03-03T12:00:01Z"))).toEqual(["c2"]);
    expect((await get("sessionId=s-a", basic, otherFlowId)).json.map((r: { content: string }) => r.content)).toEqual([
      "elsewhere",
    ]);
  });

  it("reads date-only and date-time bounds; a date-only endDate includes that whole UTC day", async () => {
    expect(keys(await get("startDate=2025-03-02"))).toEqual(["b2", "c1", "c2"]);
    expect(keys(await get("endDate=2025-03-01"))).toEqual(["a1", "a2", "b1"]);
    expect(keys(await get("startDate=2025-03-01&endDate=2025-03-01"))).toEqual(["a1", "a2", "b1"]);
    expect(keys(await get("endDate=2025-03-01T08:00:00Z"))).toEqual(["a1"]);
    expect(keys(await get("startDate=2025-03-01T08:00:00.500Z&endDate=2025-03-02T00:30:00.000Z"))).toEqual([
      "a2",
      "b1",
      "b2",
    ]);
  });

  it("applies time-zone offsets (with or without a colon, and a + that arrived as a space)", async () => {
    // 2025-03-02T01:00+02:00 is 2025-03-01T23:00Z: b1 (23:30Z) and later.
    expect(keys(await get(`startDate=${encodeURIComponent("2025-03-02T01:00:00+02:00")}&endDate=2025-03-02`))).toEqual([
      "b1",
      "b2",
    ]);
    expect(keys(await get(`startDate=${encodeURIComponent("2025-03-02T01:00+0200")}&endDate=2025-03-02`))).toEqual([
      "b1",
      "b2",
    ]);
    expect(keys(await get("startDate=2025-03-02T01:00:00+02:00&endDate=2025-03-02"))).toEqual(["b1", "b2"]);
    // 2025-03-01T20:00-04:00 is 2025-03-02T00:00Z.
    expect(keys(await get("endDate=2025-03-01T20:00:00-04:00"))).toEqual(["a1", "a2", "b1"]);
    // No offset: UTC.
    expect(keys(await get("startDate=2025-03-03T12:00:00&endDate=2025-03-03T12:00:00"))).toEqual(["c1"]);
  });

  it("answers 400 naming the parameter for unparseable dates, a start after the end, and bad values", async () => {
    const cases: [string, string][] = [
      ["startDate=yesterday", "query.startDate"],
      ["endDate=2025-02-30", "query.endDate"],
      ["endDate=2025-03-01T24:00:00Z", "query.endDate"],
      ["startDate=03/01/2025", "query.startDate"],
      ["startDate=2025-03-02&endDate=2025-03-01", "query.startDate"],
      ["startDate=2025-03-01T10:00:00Z&endDate=2025-03-01T09:59:59Z", "query.startDate"],
      ["sort=UP", "query.sort"],
      ["order=sideways", "query.order"],
      ["chatType=PUBLIC", "query.chatType"],
      ["messageId=42", "query.messageId"],
      ["page=0", "query.page"],
      ["limit=abc", "query.limit"],
      ["limit=1001", "query.limit"],
    ];
    for (const [query, field] of cases) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      expect(
        res.json.error.details.map((d: { field: string }) => d.field),
        query,
      ).toContain(field);
    }
  });

  it("pages with page and limit; X-Total-Count is the total of all matches", async () => {
    const first = await get("limit=4");
    expect(keys(first)).toEqual(["a1", "a2", "b1", "b2"]);
    expect(first.headers.get("x-total-count")).toBe("6");
    const second = await get("limit=4&page=2");
    expect(keys(second)).toEqual(["c1", "c2"]);
    const beyond = await get("limit=4&page=3");
    expect(beyond.json).toEqual([]);
    expect(beyond.headers.get("x-total-count")).toBe("6");
    // A later page is read by its ids first (lib/db/queries/chat-messages.ts): its rows keep the order.
    expect(keys(await get("limit=3&page=2"))).toEqual(["b2", "c1", "c2"]);
    expect(keys(await get("limit=3&page=2&sort=DESC"))).toEqual(["b1", "a2", "a1"]);
    const filtered = await get("chatType=EXTERNAL&limit=1&page=2&sort=DESC");
    expect(keys(filtered)).toEqual(["b1"]);
    expect(filtered.headers.get("x-total-count")).toBe("4");
  });

  it("answers 404 for an unknown chatflow and 400 for a malformed id", async () => {
    expect((await get("", basic, UNKNOWN)).status).toBe(404);
    expect((await get("", basic, "not-a-uuid")).status).toBe(400);
  });
});

describe("who may use the Message API", () => {
  it("admins over Basic or a studio session; a builder's Basic and a wrong password 401, no credentials 401", async () => {
    expect((await get()).status).toBe(200);
    const db = await getDb();
    const admin = await db.user.findUniqueOrThrow({ where: { email: ADMIN.email } });
    const builder = await db.user.findUniqueOrThrow({ where: { email: BUILDER.email } });
    expect((await get("", await auth.session(admin.id))).status).toBe(200);
    expect((await get("", await auth.session(builder.id))).status).toBe(403);
    // A builder's right password answers like a wrong one (401): Basic is no password oracle.
    expect((await get("", auth.basic(BUILDER.email, BUILDER.password))).status).toBe(401);
    expect(
      (
        await call(messages.DELETE, {
          method: "DELETE",
          params: { id: flowId },
          headers: auth.basic(BUILDER.email, BUILDER.password),
        })
      ).status,
    ).toBe(401);
    expect((await get("", auth.basic(ADMIN.email, "wrong-password"))).status).toBe(401);
    expect((await get("", {})).status).toBe(401);
  });

  it("API keys need the messages permission and the chatflow in scope", async () => {
    const predictOnly = await createApiKey({ name: "p", permissions: ["predict"], chatflowIds: [] }, keyOwner);
    expect((await get("", auth.bearer(predictOnly.key))).status).toBe(403);
    const scoped = await createApiKey({ name: "m", permissions: ["messages"], chatflowIds: [otherFlowId] }, keyOwner);
    expect((await get("", auth.bearer(scoped.key))).status).toBe(403);
    expect((await get("", auth.bearer(scoped.key), otherFlowId)).status).toBe(200);
  });

  it("rate limits wrong Basic passwords (429)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await get("", auth.basic("limited@example.com", "nope-nope"))).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("GET /api/v1/chatmessage/{id}/sessions", () => {
  it("lists sessions with first question, count and last activity, newest first, filtered by type and date", async () => {
    const res = await call(sessions.GET, { params: { id: flowId }, path: `/x`, headers: basic });
    expect(res.status).toBe(200);
    expect(res.json.data.map((s: { sessionId: string }) => s.sessionId)).toEqual(["s-c", "s-b", "s-a"]);
    expect(res.json.data[1]).toEqual({
      sessionId: "s-b",
      chatType: "EXTERNAL",
      firstMessage: "late question",
      messageCount: 2,
      firstAt: "2025-03-01T23:30:00.000Z",
      lastAt: "2025-03-02T00:30:00.000Z",
    });
    expect(res.json.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1, hasNext: false });
    const external = await call(sessions.GET, {
      params: { id: flowId },
      path: `/x?chatType=EXTERNAL&endDate=2025-03-01&limit=1`,
      headers: basic,
    });
    expect(external.json.data.map((s: { sessionId: string }) => s.sessionId)).toEqual(["s-b"]);
    expect(external.json.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2, hasNext: true });
  });
});
