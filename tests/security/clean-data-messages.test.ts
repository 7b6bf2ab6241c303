import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as messages from "../../app/api/v1/chatmessage/[id]/route";
import * as sessions from "../../app/api/v1/chatmessage/[id]/sessions/route";
import * as chatflow from "../../app/api/v1/chatflows/[id]/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { getDb } from "../../lib/db/client";
import { insertExchange } from "../../lib/db/queries/chat-messages";
import { uploadsLockCallers, withUploadsLock } from "../../lib/security/stored-files";
import { storeUpload } from "../../lib/security/uploads";
import { createChatflow } from "../../lib/services/chatflows";
import { setupFirstAdmin } from "../../lib/services/users";
import { fixtureKey, systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";
import { auth, call } from "../support/http";
import type { ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";

// Issue 10, finding 7: every Message API filter is honoured or refused (a refused DELETE changes
// nothing), and deleting messages or a chatflow removes their stored files, but only files no
// remaining message references (uploads are stored once per content).

const PNG_A =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const PNG_B =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

let stub: ModelStub;
let key: string;
let basic: Record<string, string>;

beforeAll(async () => {
  stub = await startServerModelStub();
  await setupFirstAdmin({ email: "admin@example.com", name: "Admin", password: "admin-pass-1" });
  basic = auth.basic("admin@example.com", "admin-pass-1");
  key = await fixtureKey("predict", ["predict"]);
});
afterAll(() => stub.close());

async function newFlow(name: string) {
  const f = exampleFlow("conversation.json", { allowImages: true });
  return (await createChatflow({ name, graph: f.graph as never }, systemCaller)).id;
}
const predict = (flowId: string, sessionId: string, question: string, image?: string) =>
  call(prediction.POST, {
    method: "POST",
    params: { id: flowId },
    headers: auth.bearer(key),
    body: {
      question,
      overrideConfig: { sessionId },
      ...(image ? { uploads: [{ data: image, type: "file", name: "pic.png", mime: "image/png" }] } : {}),
    },
  });
const del = (flowId: string, query: string) =>
  call(messages.DELETE, { method: "DELETE", params: { id: flowId }, path: `/x?${query}`, headers: basic });
const list = (flowId: string, query: string) =>
  call(messages.GET, { params: { id: flowId }, path: `/x?${query}`, headers: basic });
const count = async (flowId: string) => (await getDb()).chatMessage.count({ where: { chatflowId: flowId } });
const uploadPaths = async (flowId: string, sessionId: string) => {
  const rows = await (await getDb()).chatMessage.findMany({
    where: { chatflowId: flowId, sessionId, role: "userMessage" },
  });
  return rows
    .flatMap((r) => (r.fileUploads as { path: string }[] | null) ?? [])
    .map((u) => path.resolve(process.env.DATA_DIR!, u.path));
};
const filesIn = (dir: string) =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length
    : 0;

describe("Message API filters: honoured or refused", () => {
  let flowId: string;
  beforeAll(async () => {
    flowId = await newFlow("Filters");
    for (const s of ["A", "A", "B"]) expect((await predict(flowId, s, "Hello there")).status).toBe(200);
  });

  it("DELETE with a bad feedback filter is refused and deletes nothing (honoured filters: flowise-compat-chatmessage-filters)", async () => {
    for (const q of [
      "sessionId=A&feedbackType=THUMBS_SIDEWAYS",
      "sessionId=A&feedback=maybe",
      "sessionId=A&feedback=false&feedbackType=THUMBS_UP",
    ]) {
      const res = await del(flowId, q);
      expect(res.status, q).toBe(400);
      expect(res.json.error.message).toMatch(/feedback/i);
    }
    expect(await count(flowId)).toBe(6);
  });

  it("unknown query parameters are a 400 naming them, on DELETE and GET, and the DELETE changes nothing", async () => {
    const res = await del(flowId, "sessionId=A&sesionId=B&colour=red");
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
    expect(res.json.error.message).toContain("'sesionId'");
    expect(res.json.error.message).toContain("'colour'");
    expect(await count(flowId)).toBe(6);
    const got = await list(flowId, "chatId=A&bogus=1");
    expect(got.status).toBe(400);
    expect(got.json.error.message).toContain("'bogus'");
    const sessionList = await call(sessions.GET, { params: { id: flowId }, path: "/x?sort=ASC", headers: basic });
    expect(sessionList.status).toBe(400);
    expect(sessionList.json.error.message).toContain("'sort'");
  });

  it("memoryType filters by the stored memory type: a type no message has deletes nothing, an implausible one is 400", async () => {
    expect((await list(flowId, "memoryType=Nope")).json).toEqual([]);
    expect((await del(flowId, "memoryType=Nope")).json).toEqual({ deleted: 0 });
    expect(await count(flowId)).toBe(6);
    for (const bad of ["%00Buffer", "x".repeat(300), "<script>"]) {
      const res = await del(flowId, `memoryType=${bad}`);
      expect(res.status, bad).toBe(400);
      // A NUL is refused before the schema (lib/http/input-checks.ts); the rest by the schema, in words.
      expect(res.json.error.message).toMatch(/^(Memory type |query\.memoryType: must not contain a NUL)/);
    }
    expect(await count(flowId)).toBe(6);
    const listed = await list(flowId, "memoryType=Buffer%20Memory&sessionId=B");
    expect(listed.json.map((m: { memoryType: string }) => m.memoryType)).toEqual(["Buffer Memory", "Buffer Memory"]);
    expect((await del(flowId, "memoryType=Buffer%20Memory&sessionId=B")).json).toEqual({ deleted: 2 });
    expect(await count(flowId)).toBe(4);
  });
});

describe("files of deleted messages and chatflows", () => {
  it("the same image sent 50 times is stored once", async () => {
    const flowId = await newFlow("Same image");
    for (let i = 0; i < 50; i++) expect((await predict(flowId, `s${i % 5}`, "What is this?", PNG_A)).status).toBe(200);
    expect(filesIn(path.join(process.env.DATA_DIR!, "uploads", flowId))).toBe(1);
  });

  it("deleting messages removes their files unless another message still references them", async () => {
    const flowId = await newFlow("Shared files");
    await predict(flowId, "keep", "What is this?", PNG_A);
    await predict(flowId, "shared", "What is this?", PNG_A);
    await predict(flowId, "own", "What is this?", PNG_B);
    const [shared] = await uploadPaths(flowId, "shared");
    const [own] = await uploadPaths(flowId, "own");
    expect(shared).toBe((await uploadPaths(flowId, "keep"))[0]);
    expect(fs.existsSync(shared) && fs.existsSync(own)).toBe(true);

    expect((await del(flowId, "sessionId=own")).json).toEqual({ deleted: 2 });
    expect(fs.existsSync(own)).toBe(false);
    expect((await del(flowId, "sessionId=shared")).json).toEqual({ deleted: 2 });
    expect(fs.existsSync(shared)).toBe(true);
    expect((await del(flowId, "sessionId=keep")).json).toEqual({ deleted: 2 });
    expect(fs.existsSync(shared)).toBe(false);

    // Sent again after its last reference went: stored again, readable.
    await predict(flowId, "again", "What is this?", PNG_A);
    expect(fs.existsSync((await uploadPaths(flowId, "again"))[0])).toBe(true);
  });

  it("a deletion never removes a shared file between a prediction's write of it and the insert that references it", async () => {
    const flowId = await newFlow("Race");
    await predict(flowId, "old", "What is this?", PNG_A);
    const [file] = await uploadPaths(flowId, "old");
    // What a prediction does after its model call (lib/services/predictions.ts), held open between
    // writing the file and recording the message that references it.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const upload = {
      kind: "image" as const,
      mime: "image/png",
      ext: "png",
      name: "pic.png",
      bytes: Buffer.from(PNG_A.split(",")[1], "base64"),
    };
    const persisting = withUploadsLock(flowId, async () => {
      const stored = await storeUpload(process.env.DATA_DIR!, flowId, upload);
      await gate;
      const now = new Date();
      await insertExchange({
        chatflowId: flowId,
        sessionId: "new",
        chatId: "new",
        chatType: "EXTERNAL",
        question: "q",
        answer: "a",
        fileUploads: [{ type: "file", name: upload.name, mime: upload.mime, path: stored }],
        askedAt: now,
        answeredAt: now,
      });
    });
    const deletion = del(flowId, "sessionId=old");
    // The deletion has removed its rows and waits for the lock to check the file's references, while
    // the write holds it: two callers of the chatflow's lock.
    await expect.poll(() => uploadsLockCallers(flowId), { timeout: 10_000 }).toBe(2);
    expect(await (await getDb()).chatMessage.count({ where: { chatflowId: flowId, sessionId: "old" } })).toBe(0);
    release();
    expect((await deletion).json).toEqual({ deleted: 2 });
    await persisting;
    expect((await uploadPaths(flowId, "new"))[0]).toBe(file);
    expect(fs.existsSync(file)).toBe(true);
  });

  it("deleting a chatflow removes its stored files and leaves other chatflows' files", async () => {
    const gone = await newFlow("Gone");
    const kept = await newFlow("Kept");
    await predict(gone, "s", "What is this?", PNG_A);
    await predict(kept, "s", "What is this?", PNG_A);
    const goneDir = path.join(process.env.DATA_DIR!, "uploads", gone);
    expect(filesIn(goneDir)).toBe(1);
    const res = await call(chatflow.DELETE, { method: "DELETE", params: { id: gone }, headers: basic });
    expect(res.status).toBe(200);
    expect(fs.existsSync(goneDir)).toBe(false);
    expect(fs.existsSync((await uploadPaths(kept, "s"))[0])).toBe(true);
  });
});
