import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { edge, node } from "../../lib/flow/__fixtures__/graphs";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as publicConfig from "../../app/api/v1/public-chatbotConfig/[id]/route";
import * as chatflowRoutes from "../../app/api/v1/chatflows/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { setupFirstAdmin } from "../../lib/services/users";

const SHOP = "http://127.0.0.1:5501";
const EVIL = "http://127.0.0.1:5666";
const SECRET_SPEECH_URL = "http://127.0.0.1:9911/v1";
let stub: ModelStub;
let session: Record<string, string>;

const graph = (allowImageUploads: boolean) => ({
  nodes: [node("model", "chatOpenAICompatible", { allowImageUploads }), node("conv", "conversationChain", {})],
  edges: [edge("model", "chatModel", "conv", "model")],
});

async function createFlow(body: object): Promise<string> {
  const res = await call(chatflowRoutes.POST, {
    method: "POST",
    headers: session,
    body: { name: "Widget flow", ...body },
  });
  expect(res.status).toBe(201);
  return res.json.id;
}

const getConfig = (id: string, headers: Record<string, string> = {}) =>
  call(publicConfig.GET, { params: { id }, headers });
const predict = (id: string, headers: Record<string, string>, body: object = { question: "hello" }) =>
  call(prediction.POST, {
    method: "POST",
    params: { id },
    headers: { "x-switchyard-client-ip": "10.0.0.1", ...headers },
    body,
  });
const preflight = (id: string, origin: string) =>
  call(prediction.OPTIONS, {
    method: "OPTIONS",
    params: { id },
    headers: { origin, "access-control-request-method": "POST" },
  });

beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});
afterAll(() => stub.close());

describe("GET /api/v1/public-chatbotConfig/{id}", () => {
  it("gives a public chatflow's widget settings and nothing else", async () => {
    const id = await createFlow({
      graph: graph(true),
      isPublic: true,
      allowedOrigins: [SHOP],
      chatbotConfig: {
        title: "Shop helper",
        welcomeMessage: "Hi!",
        starterPrompts: ["Find a laptop", " "],
        theme: { primaryColor: "#0f766e", position: "left", colorScheme: "dark", legacy: "x" },
      },
      speechToText: { enabled: true, baseUrl: SECRET_SPEECH_URL, model: "whisper-1" },
    });
    const res = await getConfig(id, { origin: SHOP });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      chatflowId: id,
      title: "Shop helper",
      welcomeMessage: "Hi!",
      // Flowise's shape, which flowise-embed reads (and our widget too).
      starterPrompts: { "0": { prompt: "Find a laptop" } },
      inputPlaceholder: "",
      theme: { primaryColor: "#0f766e", position: "left", colorScheme: "dark" },
      uploads: {
        images: true,
        audio: true,
        maxBytes: expect.any(Number),
        maxFiles: expect.any(Number),
        isImageUploadAllowed: true,
        isSpeechToTextEnabled: true,
        isRAGFileUploadAllowed: false,
        imgUploadSizeAndTypes: [
          { fileTypes: ["image/png", "image/jpeg", "image/gif", "image/webp"], maxUploadSize: expect.any(Number) },
        ],
        fileUploadSizeAndTypes: [],
      },
      chatFeedback: { status: false },
      // Visitors see no tool calls unless the chatbot settings say so (chatbot-settings.test.ts).
      showToolCalls: false,
      originAllowed: true,
    });
    // Speech settings, graph and origins stay private.
    expect(res.text).not.toContain(SECRET_SPEECH_URL);
    expect(res.text).not.toContain("chatOpenAICompatible");
    expect(res.text).not.toContain(SHOP);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("tells a page whose origin is not allowed, and falls back to the chatflow name", async () => {
    const id = await createFlow({ name: "Plain", graph: graph(false), isPublic: true, allowedOrigins: [SHOP] });
    const res = await getConfig(id, { origin: EVIL });
    expect(res.json).toMatchObject({ title: "Plain", originAllowed: false, uploads: { images: false, audio: false } });
    expect((await getConfig(id)).json.originAllowed).toBeNull();
  });

  it("answers 404 for a private chatflow to the public, as for an unknown id, but shows it to its builders", async () => {
    const id = await createFlow({ graph: graph(false), chatbotConfig: { title: "Internal" } });
    const anonymous = await getConfig(id, { origin: SHOP });
    expect(anonymous.status).toBe(404);
    expect(anonymous.json.error.code).toBe("not_found");
    const unknown = await getConfig("7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b");
    expect(unknown.status).toBe(404);
    const builder = await getConfig(id, session);
    expect(builder.status).toBe(200);
    expect(builder.json.title).toBe("Internal");
    expect((await getConfig("not-a-uuid")).status).toBe(400);
  });

  it("refuses a theme value that could inject CSS when saving", async () => {
    const res = await call(chatflowRoutes.POST, {
      method: "POST",
      headers: session,
      body: { name: "Bad theme", chatbotConfig: { theme: { primaryColor: "red; background:url(https://x)" } } },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.details[0].field).toBe("body.chatbotConfig.theme.primaryColor");
  });
});

describe("public prediction from browsers", () => {
  it("answers preflights with CORS headers only for allowed origins of public chatflows", async () => {
    const pub = await createFlow({ graph: graph(false), isPublic: true, allowedOrigins: [SHOP] });
    const ok = await preflight(pub, SHOP);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(ok.headers.get("access-control-allow-headers")).toBe("content-type");
    expect(ok.headers.get("vary")).toContain("Origin");
    expect((await preflight(pub, EVIL)).headers.get("access-control-allow-origin")).toBeNull();
    const priv = await createFlow({ graph: graph(false), allowedOrigins: [SHOP] });
    expect((await preflight(priv, SHOP)).headers.get("access-control-allow-origin")).toBeNull();
    expect((await preflight("not-a-uuid", SHOP)).headers.get("access-control-allow-origin")).toBeNull();
  });

  it("lets an allowed origin chat without a key, stored as EXTERNAL, and refuses others with 403", async () => {
    const id = await createFlow({ graph: graph(false), isPublic: true, allowedOrigins: [SHOP] });
    const res = await predict(
      id,
      { origin: SHOP },
      { question: "hello", streaming: true, chatId: "widget-chat-1", overrideConfig: { sessionId: "widget-chat-1" } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(res.text).toContain('"event":"token"');
    const rows = await (await getDb()).chatMessage.findMany({ where: { chatflowId: id } });
    expect(rows.map((r) => r.chatType)).toEqual(["EXTERNAL", "EXTERNAL"]);

    const refused = await predict(id, { origin: EVIL });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("treats an empty allowed-origins list as no browser origin at all", async () => {
    const id = await createFlow({ graph: graph(false), isPublic: true, allowedOrigins: [] });
    expect((await predict(id, { origin: SHOP })).status).toBe(403);
    expect((await preflight(id, SHOP)).headers.get("access-control-allow-origin")).toBeNull();
  });

  it("needs a key for a private chatflow even from a listed origin (404, as for an unknown id)", async () => {
    const id = await createFlow({ graph: graph(false), allowedOrigins: [SHOP] });
    const res = await predict(id, { origin: SHOP });
    expect(res.status).toBe(404);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("limits each client IP per chatflow with 429 and a Retry-After the widget can read", async () => {
    const id = await createFlow({
      graph: graph(false),
      isPublic: true,
      allowedOrigins: [SHOP],
      rateLimit: { max: 2, windowSec: 60 },
    });
    expect((await predict(id, { origin: SHOP })).status).toBe(200);
    expect((await predict(id, { origin: SHOP })).status).toBe(200);
    const limited = await predict(id, { origin: SHOP });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(limited.headers.get("access-control-expose-headers")).toContain("Retry-After");
    // Another client is counted on its own.
    expect((await predict(id, { origin: SHOP, "x-switchyard-client-ip": "10.0.0.2" })).status).toBe(200);
  });
});
