// Flowise's feedback and leads, as flowise-embed sends them: POST /feedback/{chatflowid},
// PUT /feedback/{id}, POST /leads/ — from an allowed origin of a public chatflow, without a key —
// and how admins read them (GET /feedback/{id}, /leads/{id}, the Message API, its CSV).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { exampleFlow } from "../../dev/flows";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as feedbackRoot from "../../app/api/v1/feedback/route";
import * as feedbackById from "../../app/api/v1/feedback/[id]/route";
import * as leadsRoot from "../../app/api/v1/leads/route";
import * as leadsById from "../../app/api/v1/leads/[id]/route";
import * as chatflowRoutes from "../../app/api/v1/chatflows/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { createUser, setupFirstAdmin } from "../../lib/services/users";
import { proxy } from "../../proxy";
import { NextRequest } from "next/server";

const SHOP = "http://127.0.0.1:5501";
const EVIL = "http://127.0.0.1:5666";
let stub: ModelStub;
let admin: Record<string, string>;
let builder: Record<string, string>;
let ip = 0;

const nextIp = () => `10.9.${Math.floor(ip / 250)}.${ip++ % 250}`;

async function createFlow(body: object): Promise<string> {
  const res = await call(chatflowRoutes.POST, {
    method: "POST",
    headers: admin,
    body: { name: "Feedback flow", graph: exampleFlow("conversation.json").graph, ...body },
  });
  expect(res.status).toBe(201);
  return res.json.id;
}

/** A public chatflow asking for feedback and leads, and one answered exchange in `chatId`. */
async function publicFlowWithAnswer(chatId = "visitor-1", config: object = {}) {
  const id = await createFlow({
    isPublic: true,
    allowedOrigins: [SHOP],
    chatbotConfig: {
      chatFeedback: { status: true },
      leads: { status: true, title: "Stay in touch", name: true, email: true, phone: false },
      ...config,
    },
  });
  const answer = await ask(id, chatId);
  return { id, chatId, messageId: answer.chatMessageId as string };
}

async function ask(id: string, chatId: string) {
  const res = await call(prediction.POST, {
    method: "POST",
    params: { id },
    headers: { origin: SHOP, "x-switchyard-client-ip": nextIp() },
    body: { question: "hello", chatId },
  });
  expect(res.status).toBe(200);
  return res.json;
}

const rate = (id: string, body: object, origin = SHOP) =>
  call(feedbackById.POST, {
    method: "POST",
    params: { id },
    headers: { origin, "x-switchyard-client-ip": nextIp() },
    body,
  });

beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const a = await setupFirstAdmin({ email: "admin@fb.test", name: "Admin", password: "admin-pass-1" });
  const b = await createUser({ email: "builder@fb.test", name: "B", password: "builder-pass-1", role: "builder" });
  admin = await auth.session(a.id);
  builder = await auth.session(b.id);
});
afterAll(() => stub.close());

describe("POST /api/v1/feedback/{chatflowid}", () => {
  it("stores a visitor's thumbs from an allowed origin, with CORS, and one rating per message", async () => {
    const { id, chatId, messageId } = await publicFlowWithAnswer();
    const up = await rate(id, { chatflowid: id, chatId, messageId, rating: "THUMBS_UP", content: "" });
    expect(up.status).toBe(200);
    expect(up.json).toMatchObject({ chatflowid: id, chatId, messageId, rating: "THUMBS_UP", content: "" });
    expect(up.headers.get("access-control-allow-origin")).toBe(SHOP);
    // The same message rated again replaces the rating (upsert), keeping its id.
    const down = await rate(id, { chatflowid: id, chatId, messageId, rating: "THUMBS_DOWN" });
    expect(down.status).toBe(200);
    expect(down.json.id).toBe(up.json.id);
    expect(await (await getDb()).chatMessageFeedback.count({ where: { chatflowId: id } })).toBe(1);
    // The comment typed after the thumb (flowise-embed: PUT /feedback/{id} with { content }).
    const comment = await call(feedbackById.PUT, {
      method: "PUT",
      params: { id: up.json.id },
      headers: { origin: SHOP, "x-switchyard-client-ip": nextIp() },
      body: { content: "Wrong price" },
    });
    expect(comment.status).toBe(200);
    expect(comment.json).toMatchObject({ id: up.json.id, rating: "THUMBS_DOWN", content: "Wrong price" });
    expect(comment.headers.get("access-control-allow-origin")).toBe(SHOP);
    // POST /feedback with the chatflow in the body works too.
    const root = await call(feedbackRoot.POST, {
      method: "POST",
      headers: { origin: SHOP, "x-switchyard-client-ip": nextIp() },
      body: { chatflowid: id, chatId, messageId, rating: "THUMBS_UP" },
    });
    expect(root.status).toBe(200);
    expect(root.json.rating).toBe("THUMBS_UP");
  });

  it("answers preflights for the chatflow's allowed origins only", async () => {
    const { id } = await publicFlowWithAnswer();
    const ok = await call(feedbackById.OPTIONS, {
      method: "OPTIONS",
      params: { id },
      headers: { origin: SHOP, "access-control-request-method": "POST" },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(ok.headers.get("access-control-allow-methods")).toContain("PUT");
    const evil = await call(feedbackById.OPTIONS, {
      method: "OPTIONS",
      params: { id },
      headers: { origin: EVIL, "access-control-request-method": "POST" },
    });
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuses bad input with 4xx naming it, and messages of other chats or chatflows with 404", async () => {
    const { id, chatId, messageId } = await publicFlowWithAnswer();
    const other = await publicFlowWithAnswer("visitor-2");
    const bad = async (body: object, status: number, match: RegExp) => {
      const res = await rate(id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      // Named in words in the message, or by its field in details.
      const said = [res.json.error.message, ...(res.json.error.details ?? []).map((d: { field: string }) => d.field)];
      expect(said.join(" ")).toMatch(match);
    };
    await bad({ chatId, messageId, rating: "MEH" }, 400, /^Rating must be THUMBS_UP or THUMBS_DOWN\./);
    await bad({ chatId, messageId: "nope", rating: "THUMBS_UP" }, 400, /messageId/);
    await bad({ messageId, rating: "THUMBS_UP" }, 400, /chatId/);
    await bad({ chatId, messageId, rating: "THUMBS_UP", content: "x".repeat(5001) }, 400, /content/);
    await bad({ chatId, messageId, rating: "THUMBS_UP", extra: 1 }, 400, /extra/);
    await bad({ chatflowid: other.id, chatId, messageId, rating: "THUMBS_UP" }, 400, /does not match/);
    // Another chat's message, another chatflow's message: unknown here.
    await bad({ chatId: "someone-else", messageId, rating: "THUMBS_UP" }, 404, /not found/);
    await bad({ chatId: other.chatId, messageId: other.messageId, rating: "THUMBS_UP" }, 404, /not found/);
    // The question cannot be rated, only the answer.
    const question = await (await getDb()).chatMessage.findFirst({
      where: { chatflowId: id, role: "userMessage" },
    });
    await bad({ chatId, messageId: question!.id, rating: "THUMBS_UP" }, 400, /only answers/);
    expect(await (await getDb()).chatMessageFeedback.count({ where: { chatflowId: id } })).toBe(0);
  });

  it("refuses other origins (403), private chatflows (404) and chatflows without feedback (400)", async () => {
    const { id, chatId, messageId } = await publicFlowWithAnswer();
    const evil = await rate(id, { chatId, messageId, rating: "THUMBS_UP" }, EVIL);
    expect(evil.status).toBe(403);
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();

    const off = await publicFlowWithAnswer("v", { chatFeedback: { status: false } });
    const refused = await rate(off.id, { chatId: off.chatId, messageId: off.messageId, rating: "THUMBS_UP" });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toMatch(/Feedback is not enabled/);

    const priv = await createFlow({ chatbotConfig: { chatFeedback: { status: true } } });
    const answer = await call(prediction.POST, {
      method: "POST",
      params: { id: priv },
      headers: admin,
      body: { question: "hi", chatId: "c" },
    });
    const anon = await call(feedbackById.POST, {
      method: "POST",
      params: { id: priv },
      body: { chatId: "c", messageId: answer.json.chatMessageId, rating: "THUMBS_UP" },
    });
    expect(anon.status).toBe(404);
    // Its manager may rate it.
    const own = await call(feedbackById.POST, {
      method: "POST",
      params: { id: priv },
      headers: admin,
      body: { chatId: "c", messageId: answer.json.chatMessageId, rating: "THUMBS_UP" },
    });
    expect(own.status).toBe(200);
    // A private chatflow's feedback cannot be changed by the public either.
    const put = await call(feedbackById.PUT, { method: "PUT", params: { id: own.json.id }, body: { content: "x" } });
    expect(put.status).toBe(404);
  });

  it("PUT refuses moving a feedback to another message, and unknown ids with 404", async () => {
    const { id, chatId, messageId } = await publicFlowWithAnswer();
    const fb = await rate(id, { chatId, messageId, rating: "THUMBS_UP" });
    const put = (fid: string, body: object) =>
      call(feedbackById.PUT, { method: "PUT", params: { id: fid }, headers: { origin: SHOP }, body });
    expect((await put(fb.json.id, { chatId: "other" })).status).toBe(400);
    expect((await put(fb.json.id, { rating: "NOPE" })).status).toBe(400);
    expect((await put("00000000-0000-4000-8000-000000000000", { content: "x" })).status).toBe(404);
  });

  it("is listed for admins (GET /feedback/{chatflowid}, Flowise's filters), never for the public or builders", async () => {
    const { id, chatId, messageId } = await publicFlowWithAnswer();
    await rate(id, { chatId, messageId, rating: "THUMBS_DOWN", content: "meh" });
    const list = await call(feedbackById.GET, { params: { id }, headers: admin, path: `/x?chatId=${chatId}` });
    expect(list.status).toBe(200);
    expect(list.json).toEqual([expect.objectContaining({ messageId, rating: "THUMBS_DOWN", content: "meh" })]);
    const none = await call(feedbackById.GET, { params: { id }, headers: admin, path: "/x?chatId=nobody" });
    expect(none.json).toEqual([]);
    expect((await call(feedbackById.GET, { params: { id }, headers: admin, path: "/x?rating=1" })).status).toBe(400);
    expect((await call(feedbackById.GET, { params: { id } })).status).toBe(401);
    expect((await call(feedbackById.GET, { params: { id }, headers: builder })).status).toBe(403);
  });

  it("goes with its message and with its chatflow (leads too)", async () => {
    const { id, chatId, messageId } = await publicFlowWithAnswer();
    await rate(id, { chatId, messageId, rating: "THUMBS_UP" });
    const db = await getDb();
    await db.chatMessage.deleteMany({ where: { id: messageId } });
    expect(await db.chatMessageFeedback.count({ where: { chatflowId: id } })).toBe(0);
    const second = await publicFlowWithAnswer();
    await rate(second.id, { chatId: second.chatId, messageId: second.messageId, rating: "THUMBS_UP" });
    const lead = await call(leadsRoot.POST, {
      method: "POST",
      headers: { origin: SHOP, "x-switchyard-client-ip": nextIp() },
      body: { chatflowid: second.id, chatId: second.chatId, email: "gone@example.com" },
    });
    expect(lead.status).toBe(200);
    expect(
      (await call(chatflowById.DELETE, { method: "DELETE", params: { id: second.id }, headers: admin })).status,
    ).toBe(200);
    expect(await db.chatMessageFeedback.count({ where: { chatflowId: second.id } })).toBe(0);
    expect(await db.lead.count({ where: { chatflowId: second.id } })).toBe(0);
  });
});

describe("POST /api/v1/leads", () => {
  const lead = (body: object, origin = SHOP) =>
    call(leadsRoot.POST, {
      method: "POST",
      path: "/api/v1/leads/",
      headers: { origin, "x-switchyard-client-ip": nextIp() },
      body,
    });

  it("stores the widget's lead form from an allowed origin, and admins read it", async () => {
    const { id, chatId } = await publicFlowWithAnswer();
    const res = await lead({ chatflowid: id, chatId, name: "Ada", email: "ada@example.com" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ chatflowid: id, chatId, name: "Ada", email: "ada@example.com", phone: "" });
    expect(res.headers.get("access-control-allow-origin")).toBe(SHOP);
    const list = await call(leadsById.GET, { params: { id }, headers: admin });
    expect(list.json).toEqual([expect.objectContaining({ name: "Ada", email: "ada@example.com", chatId })]);
    expect((await call(leadsById.GET, { params: { id } })).status).toBe(401);
    expect((await call(leadsById.GET, { params: { id }, headers: builder })).status).toBe(403);
  });

  it("takes a lead from our own pages (the full-page chat) though the allow-list does not name them", async () => {
    // `call` sends requests to http://127.0.0.1:3000: that origin is the app's own.
    const { id, chatId } = await publicFlowWithAnswer();
    const res = await lead({ chatflowid: id, chatId, name: "Grace" }, "http://127.0.0.1:3000");
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ chatflowid: id, name: "Grace" });
  });

  it("is served at /api/v1/leads/ without a redirect (the proxy rewrites API paths, redirects pages)", () => {
    const api = proxy(new NextRequest("http://127.0.0.1:3000/api/v1/leads/", { method: "POST" }));
    expect(api.status).toBe(200);
    expect(api.headers.get("location")).toBeNull();
    expect(new URL(api.headers.get("x-middleware-rewrite")!).pathname).toBe("/api/v1/leads");
    const page = proxy(new NextRequest("http://127.0.0.1:3000/chatflows/?a=1"));
    expect(page.status).toBe(308);
    const location = new URL(page.headers.get("location")!);
    expect(location.pathname + location.search).toBe("/chatflows?a=1");
  });

  it("answers preflights for origins a public chatflow allows only", async () => {
    await publicFlowWithAnswer();
    const pre = (origin: string) =>
      call(leadsRoot.OPTIONS, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST" } });
    expect((await pre(SHOP)).headers.get("access-control-allow-origin")).toBe(SHOP);
    expect((await pre(EVIL)).headers.get("access-control-allow-origin")).toBeNull();
  });

  it("validates every field, and refuses other origins, private chatflows and chatflows without lead capture", async () => {
    const { id, chatId } = await publicFlowWithAnswer();
    const bad = async (body: object, status: number, match: RegExp, origin = SHOP) => {
      const res = await lead(body, origin);
      expect(res.status, JSON.stringify(body)).toBe(status);
      // Named in words in the message, or by its field in details.
      const said = [res.json.error.message, ...(res.json.error.details ?? []).map((d: { field: string }) => d.field)];
      expect(said.join(" ")).toMatch(match);
    };
    await bad({ chatflowid: id, chatId, email: "not-an-email" }, 400, /^Email must be an e-mail address/);
    await bad({ chatflowid: id, chatId, name: "x".repeat(201) }, 400, /name/);
    await bad({ chatflowid: id, chatId, phone: "<script>" }, 400, /phone/);
    await bad({ chatflowid: id, chatId }, 400, /name, email or phone is required/);
    await bad({ chatflowid: "nope", chatId, name: "A" }, 400, /chatflowid/);
    await bad({ chatflowid: id, name: "A" }, 400, /chatId/);
    await bad({ chatflowid: id, chatId, name: "A", isAdmin: true }, 400, /isAdmin/);
    await bad({ chatflowid: id, chatId, name: "A" }, 403, /not allowed/, EVIL);
    const off = await createFlow({ isPublic: true, allowedOrigins: [SHOP] });
    await bad({ chatflowid: off, chatId, name: "A" }, 400, /Lead capture is not enabled/);
    const priv = await createFlow({ chatbotConfig: { leads: { status: true } } });
    await bad({ chatflowid: priv, chatId, name: "A" }, 404, /not found/);
    await bad({ chatflowid: "00000000-0000-4000-8000-000000000000", chatId, name: "A" }, 404, /not found/);
    expect(await (await getDb()).lead.count({ where: { chatflowId: { in: [id, off, priv] } } })).toBe(0);
  });
});

describe("the widget config", () => {
  it("carries chatFeedback and the leads settings for flowise-embed", async () => {
    const { id } = await publicFlowWithAnswer();
    const res = await call((await import("../../app/api/v1/public-chatbotConfig/[id]/route")).GET, { params: { id } });
    expect(res.json.chatFeedback).toEqual({ status: true });
    expect(res.json.leads).toEqual({ status: true, title: "Stay in touch", name: true, email: true, phone: false });
  });

  it("refuses bad feedback and leads settings when saving a chatflow (400)", async () => {
    const res = await call(chatflowRoutes.POST, {
      method: "POST",
      headers: admin,
      body: {
        name: "x",
        graph: exampleFlow("conversation.json").graph,
        chatbotConfig: { leads: { status: "yes" }, chatFeedback: { status: true, extra: 1 } },
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain("Leads status must be a boolean.");
    expect(res.json.error.details.map((d: { field: string }) => d.field)).toContain("body.chatbotConfig.leads.status");
  });
});
