// The endpoints flowise-embed and flowise-sdk call besides predictions: GET /chatflows-streaming/{id}
// and /chatflows-uploads/{id} (with CORS for a public chatflow's allowed origins only) and
// GET /get-upload-file (a chat's uploads, served safely, nothing else).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { exampleFlow } from "../../dev/flows";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as streaming from "../../app/api/v1/chatflows-streaming/[id]/route";
import * as uploads from "../../app/api/v1/chatflows-uploads/[id]/route";
import * as getUploadFile from "../../app/api/v1/get-upload-file/route";
import * as chatflowRoutes from "../../app/api/v1/chatflows/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { setupFirstAdmin } from "../../lib/services/users";

const SHOP = "http://127.0.0.1:5501";
const EVIL = "http://127.0.0.1:5666";
const PNG_DATA =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const PNG = Buffer.from(PNG_DATA.split(",")[1], "base64");
let stub: ModelStub;
let admin: Record<string, string>;
let ip = 0;

async function createFlow(body: object): Promise<string> {
  const res = await call(chatflowRoutes.POST, {
    method: "POST",
    headers: admin,
    body: { name: "Widget flow", graph: exampleFlow("conversation.json", { allowImages: true }).graph, ...body },
  });
  expect(res.status).toBe(201);
  return res.json.id;
}

beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const a = await setupFirstAdmin({ email: "admin@embed.test", name: "Admin", password: "admin-pass-1" });
  admin = await auth.session(a.id);
});
afterAll(() => stub.close());

describe("GET /api/v1/chatflows-streaming/{id} from browsers (flowise-sdk, flowise-embed)", () => {
  it("answers CORS and preflights for the public chatflow's allowed origins only", async () => {
    const id = await createFlow({ isPublic: true, allowedOrigins: [SHOP] });
    const get = (origin: string) => call(streaming.GET, { params: { id }, headers: { origin } });
    const ok = await get(SHOP);
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ isStreaming: true });
    expect(ok.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(ok.headers.get("access-control-allow-credentials")).toBeNull();
    expect((await get(EVIL)).headers.get("access-control-allow-origin")).toBeNull();
    // flowise-sdk sends Content-Type: application/json on this GET: the browser preflights it.
    const pre = (origin: string, flow = id) =>
      call(streaming.OPTIONS, {
        method: "OPTIONS",
        params: { id: flow },
        headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": "content-type" },
      });
    const allowed = await pre(SHOP);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(allowed.headers.get("access-control-allow-headers")).toContain("content-type");
    expect((await pre(EVIL)).headers.get("access-control-allow-origin")).toBeNull();
    // A private chatflow lists no origins, whatever it stores.
    const priv = await createFlow({ allowedOrigins: [SHOP] });
    expect((await pre(SHOP, priv)).headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("GET /api/v1/chatflows-uploads/{id}", () => {
  it("gives Flowise's upload fields for a public chatflow, with CORS for its origins", async () => {
    const id = await createFlow({ isPublic: true, allowedOrigins: [SHOP] });
    const res = await call(uploads.GET, { params: { id }, headers: { origin: SHOP } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      isImageUploadAllowed: true,
      isSpeechToTextEnabled: false,
      isRAGFileUploadAllowed: false,
      imgUploadSizeAndTypes: [{ fileTypes: expect.arrayContaining(["image/png", "image/jpeg"]) }],
      fileUploadSizeAndTypes: [],
    });
    expect(res.json.imgUploadSizeAndTypes[0].maxUploadSize).toBeGreaterThan(0);
    expect(res.headers.get("access-control-allow-origin")).toBe(SHOP);
    const plain = await createFlow({ isPublic: true, graph: exampleFlow("conversation.json").graph });
    expect((await call(uploads.GET, { params: { id: plain } })).json).toMatchObject({
      isImageUploadAllowed: false,
      imgUploadSizeAndTypes: [],
    });
  });

  it("is 404 for a private chatflow to the public (like an unknown id), 200 for its manager", async () => {
    const id = await createFlow({});
    expect((await call(uploads.GET, { params: { id } })).status).toBe(404);
    expect((await call(uploads.GET, { params: { id: "00000000-0000-4000-8000-000000000000" } })).status).toBe(404);
    expect((await call(uploads.GET, { params: { id }, headers: admin })).status).toBe(200);
    expect((await call(uploads.GET, { params: { id: "nope" } })).status).toBe(400);
  });
});

describe("GET /api/v1/get-upload-file", () => {
  let id: string;
  const chatId = "visitor-42";
  beforeAll(async () => {
    id = await createFlow({ isPublic: true, allowedOrigins: [SHOP] });
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id },
      headers: { origin: SHOP, "x-switchyard-client-ip": `10.7.0.${ip++}` },
      body: {
        question: "what is this?",
        chatId,
        uploads: [{ data: PNG_DATA, type: "file", name: "shot.png", mime: "image/png" }],
      },
    });
    expect(res.status).toBe(200);
  });
  const get = (q: Record<string, string>, headers: Record<string, string> = {}) =>
    call(getUploadFile.GET, { path: `/x?${new URLSearchParams(q)}`, headers });

  it("serves a chat's upload by chatflow, chat and name, with its checked type and nosniff", async () => {
    const res = await call(getUploadFile.GET, {
      path: `/x?${new URLSearchParams({ chatflowId: id, chatId, fileName: "shot.png" })}`,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-disposition")).toMatch(/^inline; filename="shot.png"/);
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    // The bytes are the upload's (read raw: call() decodes as text).
    const raw = await getUploadFile.GET(
      new Request(`http://127.0.0.1:3000/x?${new URLSearchParams({ chatflowId: id, chatId, fileName: "shot.png" })}`),
    );
    expect(Buffer.from(await raw.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("is 404 for another chat, another chatflow, an unknown or path-like name, and a private chatflow's files to the public", async () => {
    const other = await createFlow({ isPublic: true, allowedOrigins: [SHOP] });
    for (const q of [
      { chatflowId: id, chatId: "someone-else", fileName: "shot.png" },
      { chatflowId: other, chatId, fileName: "shot.png" },
      { chatflowId: id, chatId, fileName: "other.png" },
      { chatflowId: id, chatId, fileName: "../../../etc/passwd" },
      { chatflowId: id, chatId, fileName: "%2e%2e%2fshot.png" },
      { chatflowId: "00000000-0000-4000-8000-000000000000", chatId, fileName: "shot.png" },
    ]) {
      const res = await get(q);
      expect(res.status, JSON.stringify(q)).toBe(404);
      expect(res.json.error.code).toBe("not_found");
    }
    // Made private: the same file is unknown to the public, still there for its manager.
    await (await getDb()).chatflow.update({ where: { id }, data: { isPublic: false } });
    try {
      expect((await get({ chatflowId: id, chatId, fileName: "shot.png" })).status).toBe(404);
      expect((await get({ chatflowId: id, chatId, fileName: "shot.png" }, admin)).status).toBe(200);
    } finally {
      await (await getDb()).chatflow.update({ where: { id }, data: { isPublic: true } });
    }
  });

  it("never serves a stored path outside the chatflow's folder, and refuses bad or unknown parameters (400)", async () => {
    const db = await getDb();
    const secret = path.join(process.env.DATA_DIR!, "uploads", "secret.txt");
    fs.mkdirSync(path.dirname(secret), { recursive: true });
    fs.writeFileSync(secret, "top secret");
    const flow = await createFlow({ isPublic: true, allowedOrigins: [SHOP] });
    await db.chatMessage.create({
      data: {
        chatflowId: flow,
        sessionId: "s",
        chatId: "c",
        role: "userMessage",
        content: "x",
        fileUploads: [{ type: "file", name: "t.png", mime: "image/png", path: "uploads/secret.txt" }],
      },
    });
    const res = await get({ chatflowId: flow, chatId: "c", fileName: "t.png" });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain("top secret");
    expect((await get({ chatflowId: "nope", chatId: "c", fileName: "t.png" })).status).toBe(400);
    expect((await get({ chatflowId: flow, chatId: "c" })).status).toBe(400);
    const extra = await get({ chatflowId: flow, chatId: "c", fileName: "t.png", path: "/etc/passwd" });
    expect(extra.status).toBe(400);
    expect(extra.json.error.message).toContain("'path'");
  });
});
