import { beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as apikeys from "../../app/api/v1/apikey/route";
import * as ping from "../../app/api/v1/ping/route";
import * as validate from "../../app/api/v1/chatflows/[id]/validate/route";
import * as catchAll from "../../app/api/[...path]/route";
import { setupFirstAdmin } from "../../lib/services/users";
import { getDb } from "../../lib/db/client";
import { chatflowResponseSchema } from "@/common/schemas/chatflow";

let session: Record<string, string>;
const UNKNOWN = "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b";

beforeAll(async () => {
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});

const create = async (body: object) => {
  const res = await call(chatflows.POST, { method: "POST", headers: session, body });
  expect(res.status).toBe(201);
  return res.json;
};

describe("chatflow management", () => {
  it("creates, reads, renames (no new version: the graph and run settings did not change), lists and deletes", async () => {
    const flow = await create({ name: "Support bot", description: "answers" });
    expect(flow).toMatchObject({ name: "Support bot", version: 1, isPublic: false, graph: { nodes: [], edges: [] } });
    const got = await call(chatflowById.GET, { params: { id: flow.id }, headers: session });
    expect(got.json.id).toBe(flow.id);
    const renamed = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: flow.id },
      headers: session,
      body: { name: "Help bot" },
    });
    expect(renamed.json).toMatchObject({ name: "Help bot", version: 1, description: "answers" });
    const edited = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: flow.id },
      headers: session,
      body: { graph: { nodes: [], edges: [], notes: [{ id: "n1", position: { x: 0, y: 0 }, text: "todo" }] } },
    });
    expect(edited.json).toMatchObject({ name: "Help bot", version: 2 });
    const list = await call(chatflows.GET, { headers: session });
    expect(list.json.find((c: { id: string }) => c.id === flow.id)).toMatchObject({ name: "Help bot" });
    expect(list.json[0]).not.toHaveProperty("graph");
    const del = await call(chatflowById.DELETE, { method: "DELETE", params: { id: flow.id }, headers: session });
    expect(del.status).toBe(200);
    expect((await call(chatflowById.GET, { params: { id: flow.id }, headers: session })).status).toBe(404);
  });

  it("answers a chatflow in the shape common/schemas declares for the studio (created, read, saved)", async () => {
    const flow = await create({ name: "Typed", chatbotConfig: { title: "Hi" }, rateLimit: { max: 5, windowSec: 60 } });
    expect(chatflowResponseSchema.strict().parse(flow)).toEqual(flow);
    const got = await call(chatflowById.GET, { params: { id: flow.id }, headers: session });
    expect(chatflowResponseSchema.strict().parse(got.json)).toEqual(got.json);
    const saved = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: flow.id },
      headers: session,
      body: { isPublic: true, chatbotConfig: { title: "Hello" }, expectedVersion: 1 },
    });
    // Chatbot settings are not versioned (they apply at once): the save keeps version 1.
    expect(chatflowResponseSchema.strict().parse(saved.json)).toMatchObject({
      isPublic: true,
      chatbotConfig: { title: "Hello" },
      version: 1,
    });
  });

  it("answers 400 for a malformed id and 404 for an unknown one, in the error shape", async () => {
    for (const handler of [chatflowById.GET, chatflowById.DELETE]) {
      const bad = await call(handler, { params: { id: "../../etc/passwd" }, headers: session });
      expect(bad.status).toBe(400);
      expect(bad.json.error.code).toBe("invalid_id");
      const unknown = await call(handler, { params: { id: UNKNOWN }, headers: session });
      expect(unknown.status).toBe(404);
      expect(unknown.json).toEqual({
        error: { code: "not_found", message: expect.stringContaining(UNKNOWN), requestId: expect.any(String) },
      });
    }
  });

  it("refuses unknown fields instead of mass-assigning them, and changes nothing", async () => {
    const flow = await create({ name: "Strict" });
    const res = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: flow.id },
      headers: session,
      body: { name: "Hacked", version: 99, id: UNKNOWN },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
    const row = await (await getDb()).chatflow.findUnique({ where: { id: flow.id } });
    expect(row).toMatchObject({ name: "Strict", version: 1 });
  });

  it("names each invalid field and refuses bad media types and bad JSON", async () => {
    const res = await call(chatflows.POST, {
      method: "POST",
      headers: session,
      body: { name: "", allowedOrigins: ["not a url"] },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(["body.name", "body.allowedOrigins.0"]),
    );
    const text = await call(chatflows.POST, {
      method: "POST",
      headers: { ...session, "content-type": "text/plain" },
      rawBody: "{}",
    });
    expect(text.status).toBe(415);
    const broken = await call(chatflows.POST, {
      method: "POST",
      headers: { ...session, "content-type": "application/json" },
      rawBody: "{nope",
    });
    expect(broken.status).toBe(400);
    expect(broken.json.error.message).toMatch(/not valid JSON/);
  });

  it("detects a conflicting save with expectedVersion (409) and keeps the winner", async () => {
    const flow = await create({ name: "Shared" });
    const graphNamed = (text: string) => ({
      nodes: [],
      edges: [],
      notes: [{ id: "n1", position: { x: 0, y: 0 }, text }],
    });
    const first = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: flow.id },
      headers: session,
      body: { name: "Tab 1", graph: graphNamed("tab 1"), expectedVersion: 1 },
    });
    expect(first.status).toBe(200);
    // Another tab still at version 1: its save (of the graph, or of anything else) is refused.
    for (const body of [{ name: "Tab 2", graph: graphNamed("tab 2") }, { name: "Tab 2" }]) {
      const second = await call(chatflowById.PUT, {
        method: "PUT",
        params: { id: flow.id },
        headers: session,
        body: { ...body, expectedVersion: 1 },
      });
      expect(second.status).toBe(409);
      expect(second.json.error.code).toBe("conflict");
    }
    const winner = (await call(chatflowById.GET, { params: { id: flow.id }, headers: session })).json;
    expect(winner).toMatchObject({ name: "Tab 1", graph: graphNamed("tab 1"), version: 2 });
  });

  it("deleting a chatflow leaves no orphan messages or key scopes", async () => {
    const flow = await create({ name: "Doomed" });
    const db = await getDb();
    await db.chatMessage.create({
      data: { chatflowId: flow.id, sessionId: "s", chatId: "c", role: "userMessage", content: "hi" },
    });
    const key = await call(apikeys.POST, {
      method: "POST",
      headers: session,
      body: { name: "k", chatflowIds: [flow.id] },
    });
    expect(key.status).toBe(201);
    await call(chatflowById.DELETE, { method: "DELETE", params: { id: flow.id }, headers: session });
    expect(await db.chatMessage.count({ where: { chatflowId: flow.id } })).toBe(0);
    expect(await db.apiKeyChatflow.count({ where: { chatflowId: flow.id } })).toBe(0);
  });
});

describe("routing", () => {
  it("has a health route that answers with the request's id", async () => {
    const res = await call(ping.GET as never, { headers: { "x-request-id": "probe-1" } });
    expect(res.json).toEqual({ status: "ok", service: "switchyard", requestId: "probe-1" });
    expect(res.headers.get("x-request-id")).toBe("probe-1");
    // A malformed id is replaced by a new one, the same in the body and the header.
    const fresh = await call(ping.GET as never, { headers: { "x-request-id": "bad id with spaces" } });
    expect(fresh.json.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(fresh.headers.get("x-request-id")).toBe(fresh.json.requestId);
  });

  it("answers unknown API paths with a JSON 404 carrying the request id", async () => {
    const res = await call(catchAll.GET as never, {
      path: "/api/v1/nothing-here",
      headers: { "x-request-id": "r-404" },
    });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
    expect(res.json.error.requestId).toBe("r-404");
    expect(res.headers.get("x-request-id")).toBe("r-404");
  });

  it("is not fooled by a query string that looks like another path", async () => {
    const res = await call(apikeys.GET, { path: "/api/v1/apikey?/api/v1/ping" });
    // The query is refused as an unknown parameter (this route takes none), never taken as a path.
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain("Unknown query parameter '/api/v1/ping'");
  });
});

describe("graph checks", () => {
  it("refuses a graph of the wrong shape on save and reports node problems on validate", async () => {
    const bad = await call(chatflows.POST, {
      method: "POST",
      headers: session,
      body: { name: "Bad", graph: { nodes: [{ id: "a:b", type: "x" }], edges: [] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain("ID (nodes item 1) must not contain");
    expect(bad.json.error.message).not.toContain("body.");
    expect(bad.json.error.details[0].field).toMatch(/^body\.graph\.nodes\.0\./);
    const graph = {
      nodes: [{ id: "chain", type: "llmChain", position: { x: 0, y: 0 }, data: { inputs: {} } }],
      edges: [],
    };
    const flow = await create({ name: "Incomplete", graph });
    const res = await call(validate.GET, { params: { id: flow.id }, headers: session });
    expect(res.status).toBe(200);
    expect(res.json.valid).toBe(false);
    expect(res.json.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ nodeId: "chain", input: "model" })]),
    );
  });
});
