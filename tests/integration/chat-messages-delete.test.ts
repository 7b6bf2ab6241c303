import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import type { Caller } from "@/common/access/callers";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as messages from "../../app/api/v1/chatmessage/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { createChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { setupFirstAdmin } from "../../lib/services/users";

const system: Caller = systemCaller;
// A 1×1 PNG.
const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
// Another 1×1 PNG: uploads are stored by content, so the same image in two sessions is one file.
const OTHER_PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
let stub: ModelStub;
let flowId: string;
let key: string;
let basic: Record<string, string>;

beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  await setupFirstAdmin({ email: "admin@example.com", name: "Admin", password: "admin-pass-1" });
  basic = auth.basic("admin@example.com", "admin-pass-1");
  const f = exampleFlow("conversation.json", { allowImages: true });
  flowId = (await createChatflow({ name: "Memory", graph: f.graph as never }, system)).id;
  key = (await createApiKey({ name: "predict", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner()))
    .key;
});
afterAll(() => stub.close());

const predict = (sessionId: string, question: string, extra: object = {}) =>
  call(prediction.POST, {
    method: "POST",
    params: { id: flowId },
    headers: auth.bearer(key),
    body: { question, overrideConfig: { sessionId }, ...extra },
  });
const del = (query: string) =>
  call(messages.DELETE, { method: "DELETE", params: { id: flowId }, path: `/x?${query}`, headers: basic });
const count = async (where: object = {}) =>
  (await getDb()).chatMessage.count({ where: { chatflowId: flowId, ...where } });

describe("DELETE /api/v1/chatmessage/{id}", () => {
  it("deleting a session's messages really resets its memory; other sessions keep theirs", async () => {
    await predict("s-grace", "Hi, my name is Grace.");
    await predict("s-alan", "Hi, my name is Alan.");
    expect((await predict("s-grace", "What is my name?")).json.text).toContain("Grace");

    const res = await del("sessionId=s-grace");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ deleted: 4 });
    expect(await count({ sessionId: "s-grace" })).toBe(0);

    const fresh = await predict("s-grace", "What is my name?");
    expect(fresh.status).toBe(200);
    expect(fresh.json.text).not.toContain("Grace");
    expect((await predict("s-alan", "What is my name?")).json.text).toContain("Alan");
  });

  it("removes the files uploaded with deleted messages, and only those", async () => {
    const kept = await predict("s-img-keep", "What is this?", {
      uploads: [{ data: PNG, type: "file", name: "keep.png", mime: "image/png" }],
    });
    const gone = await predict("s-img-gone", "What is this?", {
      uploads: [{ data: OTHER_PNG, type: "file", name: "gone.png", mime: "image/png" }],
    });
    expect(kept.status).toBe(200);
    expect(gone.status).toBe(200);
    const stored = async (sessionId: string) => {
      const row = await (await getDb()).chatMessage.findFirstOrThrow({
        where: { chatflowId: flowId, sessionId, role: "userMessage" },
      });
      const [upload] = row.fileUploads as { path: string; name: string }[];
      return path.resolve(process.env.DATA_DIR!, upload.path);
    };
    const keptFile = await stored("s-img-keep");
    const goneFile = await stored("s-img-gone");
    expect(fs.existsSync(keptFile) && fs.existsSync(goneFile)).toBe(true);

    expect((await del("sessionId=s-img-gone")).json).toEqual({ deleted: 2 });
    expect(fs.existsSync(goneFile)).toBe(false);
    expect(fs.existsSync(keptFile)).toBe(true);
  });

  it("deletes exactly what the filters select (type, chatId, messageId, dates) and counts it", async () => {
    const db = await getDb();
    const base = {
      chatflowId: flowId,
      sessionId: "s-dates",
      chatId: "c-dates",
      role: "userMessage" as const,
      content: "x",
    };
    const rows = await Promise.all(
      ["2024-01-01T00:00:00Z", "2024-01-01T23:59:59Z", "2024-01-02T00:00:00Z", "2024-01-03T10:00:00Z"].map((at, i) =>
        db.chatMessage.create({
          data: { ...base, chatType: i === 3 ? "INTERNAL" : "EXTERNAL", createdAt: new Date(at) },
        }),
      ),
    );
    expect((await del("sessionId=s-dates&startDate=2024-01-05")).json).toEqual({ deleted: 0 });
    expect((await del(`messageId=${rows[2].id}&sessionId=other`)).json).toEqual({ deleted: 0 });
    expect((await del("sessionId=s-dates&chatType=INTERNAL")).json).toEqual({ deleted: 1 });
    expect((await del("chatId=c-dates&endDate=2024-01-01")).json).toEqual({ deleted: 2 });
    expect(await count({ sessionId: "s-dates" })).toBe(1);
    expect((await del(`messageId=${rows[2].id}`)).json).toEqual({ deleted: 1 });
    expect(await count({ sessionId: "s-dates" })).toBe(0);
  });

  it("takes Flowise's studio parameters: chatType as a JSON array or a list, hardDelete, isClearFromViewMessageDialog", async () => {
    const db = await getDb();
    const base = { chatflowId: flowId, sessionId: "s-flowise", chatId: "c-flowise", role: "userMessage" as const };
    const make = () =>
      Promise.all(
        (["INTERNAL", "EXTERNAL", "EXTERNAL"] as const).map((chatType) =>
          db.chatMessage.create({ data: { ...base, content: "x", chatType } }),
        ),
      );
    await make();
    const list = (query: string) =>
      call(messages.GET, { params: { id: flowId }, path: `/x?sessionId=s-flowise&${query}`, headers: basic });
    // Both types (JSON array or comma list): every message; one type: those.
    expect((await list(`chatType=${encodeURIComponent('["INTERNAL","EXTERNAL"]')}`)).json).toHaveLength(3);
    expect((await list("chatType=INTERNAL,EXTERNAL")).json).toHaveLength(3);
    expect((await list(`chatType=${encodeURIComponent('["EXTERNAL"]')}`)).json).toHaveLength(2);
    expect((await list("chatType=SOMETIMES")).status).toBe(400);
    // What Flowise's "Delete messages" dialog sends.
    const flowiseDelete = `sessionId=s-flowise&chatType=${encodeURIComponent('["EXTERNAL"]')}&hardDelete=true&isClearFromViewMessageDialog=true`;
    expect((await del(flowiseDelete)).json).toEqual({ deleted: 2 });
    expect(await count({ sessionId: "s-flowise" })).toBe(1);
    expect((await del("sessionId=s-flowise&hardDelete=maybe")).status).toBe(400);
    expect(await count({ sessionId: "s-flowise" })).toBe(1);
  });

  it("refuses paging parameters and bad filters with 400, and an unknown chatflow with 404", async () => {
    const before = await count();
    for (const [query, field] of [
      ["limit=1", "query.limit"],
      ["page=2", "query.page"],
      ["startDate=soon", "query.startDate"],
      ["startDate=2024-02-01&endDate=2024-01-01", "query.startDate"],
    ]) {
      const res = await del(query);
      expect(res.status, query).toBe(400);
      expect(res.json.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await count()).toBe(before);
    const unknown = await call(messages.DELETE, {
      method: "DELETE",
      params: { id: "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b" },
      headers: basic,
    });
    expect(unknown.status).toBe(404);
  });

  it("without filters deletes the whole chatflow's messages", async () => {
    await predict("s-last", "hello");
    const total = await count();
    expect(total).toBeGreaterThan(0);
    expect((await del("")).json).toEqual({ deleted: total });
    expect(await count()).toBe(0);
  });
});
