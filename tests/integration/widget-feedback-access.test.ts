// Issue 38, point 2: what an anonymous chat visitor may do with feedback, as our widget and the
// full-page chat (/chat/{id}, served from our own origin) send it. A visitor may rate only answers
// of a public chatflow with feedback on, in their own chat (the message must belong to the chatId
// given), change that rating or add a comment; anything else is a clear 4xx and nothing is stored.
import { beforeAll, afterAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { exampleFlow } from "../../dev/flows";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as feedbackById from "../../app/api/v1/feedback/[id]/route";
import * as chatflowRoutes from "../../app/api/v1/chatflows/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { setupFirstAdmin } from "../../lib/services/users";

const SHOP = "http://127.0.0.1:5511";
const EVIL = "http://127.0.0.1:5666";
// `call` sends requests to http://127.0.0.1:3000: pages of this origin are our own (the full-page chat).
const OWN = "http://127.0.0.1:3000";
let stub: ModelStub;
let admin: Record<string, string>;
let ip = 0;

const visitor = (origin: string | null) => ({
  ...(origin ? { origin } : {}),
  "x-switchyard-client-ip": `10.38.${Math.floor(ip / 250)}.${ip++ % 250}`,
});

async function createFlow(body: object): Promise<string> {
  const res = await call(chatflowRoutes.POST, {
    method: "POST",
    headers: admin,
    body: { name: "Thumbs", graph: exampleFlow("conversation.json").graph, ...body },
  });
  expect(res.status).toBe(201);
  return res.json.id;
}

/** An answered question in `chatId`, asked as a visitor from `origin` (or as `headers`). */
async function answer(id: string, chatId: string, headers: Record<string, string> = visitor(SHOP)) {
  const res = await call(prediction.POST, {
    method: "POST",
    params: { id },
    headers,
    body: { question: "hi", chatId },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.chatMessageId as string;
}

const publicFlow = (feedback = true) =>
  createFlow({ isPublic: true, allowedOrigins: [SHOP], chatbotConfig: { chatFeedback: { status: feedback } } });

const rate = (id: string, body: object, origin: string | null = SHOP) =>
  call(feedbackById.POST, { method: "POST", params: { id }, headers: visitor(origin), body });
const change = (feedbackId: string, body: object, origin: string | null = SHOP) =>
  call(feedbackById.PUT, { method: "PUT", params: { id: feedbackId }, headers: visitor(origin), body });

async function storedFeedback(chatflowId: string) {
  return (await getDb()).chatMessageFeedback.findMany({ where: { chatflowId } });
}

beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const a = await setupFirstAdmin({ email: "admin@thumbs.test", name: "Admin", password: "admin-pass-1" });
  admin = await auth.session(a.id);
});
afterAll(() => stub.close());

describe("a visitor's thumbs", () => {
  it("are taken from the full-page chat on our own origin, though the allow-list names only the shop", async () => {
    const id = await publicFlow();
    const messageId = await answer(id, "page-chat", visitor(OWN));
    const up = await rate(id, { chatflowid: id, chatId: "page-chat", messageId, rating: "THUMBS_UP" }, OWN);
    expect(up.status, up.text).toBe(200);
    // The widget changes its rating and adds a comment with PUT, echoing the chat it rated in.
    const down = await change(up.json.id, { chatId: "page-chat", messageId, rating: "THUMBS_DOWN" }, OWN);
    expect(down.status).toBe(200);
    const comment = await change(up.json.id, { content: "The price is wrong" }, OWN);
    expect(comment.json).toMatchObject({ rating: "THUMBS_DOWN", content: "The price is wrong" });
    expect(await storedFeedback(id)).toEqual([
      expect.objectContaining({ messageId, chatId: "page-chat", rating: "THUMBS_DOWN", content: "The price is wrong" }),
    ]);
  });

  it("rate only the visitor's own chat: another session's answer is unknown (404), nothing stored", async () => {
    const id = await publicFlow();
    const mine = await answer(id, "mine");
    const theirs = await answer(id, "theirs");
    const res = await rate(id, { chatId: "mine", messageId: theirs, rating: "THUMBS_DOWN" });
    expect(res.status).toBe(404);
    expect(res.json.error.message).toMatch(/not found in chat mine/);
    // Their rating cannot be moved to, or changed through, my chat either.
    const own = await rate(id, { chatId: "mine", messageId: mine, rating: "THUMBS_UP" });
    const moved = await change(own.json.id, { chatId: "theirs", messageId: theirs, rating: "THUMBS_DOWN" });
    expect(moved.status).toBe(400);
    expect(await storedFeedback(id)).toEqual([expect.objectContaining({ messageId: mine, rating: "THUMBS_UP" })]);
  });

  it("are refused on a private chatflow (404) and on one with feedback off (400), also for changes", async () => {
    const off = await publicFlow(false);
    const offMessage = await answer(off, "c");
    const refused = await rate(off, { chatId: "c", messageId: offMessage, rating: "THUMBS_UP" });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toMatch(/Feedback is not enabled/);

    const priv = await createFlow({ chatbotConfig: { chatFeedback: { status: true } } });
    const privMessage = await answer(priv, "c", admin);
    for (const origin of [null, OWN, SHOP]) {
      const res = await rate(priv, { chatId: "c", messageId: privMessage, rating: "THUMBS_UP" }, origin);
      expect(res.status, String(origin)).toBe(404);
    }
    expect([...(await storedFeedback(off)), ...(await storedFeedback(priv))]).toEqual([]);

    // A rating given while feedback was on cannot be changed once it is turned off.
    const id = await publicFlow();
    const messageId = await answer(id, "c");
    const given = await rate(id, { chatId: "c", messageId, rating: "THUMBS_UP" });
    expect(given.status).toBe(200);
    const turnedOff = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id },
      headers: admin,
      body: { chatbotConfig: { chatFeedback: { status: false } } },
    });
    expect(turnedOff.status, turnedOff.text).toBe(200);
    const late = await change(given.json.id, { rating: "THUMBS_DOWN", content: "late" });
    expect(late.status).toBe(400);
    expect(late.json.error.message).toMatch(/Feedback is not enabled/);
    expect(await storedFeedback(id)).toEqual([expect.objectContaining({ rating: "THUMBS_UP", content: "" })]);
  });

  it("refuse bad ratings, huge comments and other sites with a clear 4xx, leaving the stored rating as it was", async () => {
    const id = await publicFlow();
    const messageId = await answer(id, "c");
    const bad = await rate(id, { chatId: "c", messageId, rating: "THUMBS_SIDEWAYS" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/THUMBS_UP or THUMBS_DOWN/);
    const huge = await rate(id, { chatId: "c", messageId, rating: "THUMBS_UP", content: "x".repeat(5001) });
    expect(huge.status).toBe(400);
    const tooBig = await rate(id, { chatId: "c", messageId, rating: "THUMBS_UP", content: "x".repeat(70_000) });
    expect(tooBig.status).toBe(413);
    const evil = await rate(id, { chatId: "c", messageId, rating: "THUMBS_UP" }, EVIL);
    expect(evil.status).toBe(403);
    expect(await storedFeedback(id)).toEqual([]);

    const given = await rate(id, { chatId: "c", messageId, rating: "THUMBS_UP" });
    expect((await change(given.json.id, { rating: "MEH" })).status).toBe(400);
    expect((await change(given.json.id, { content: "y".repeat(5001) })).status).toBe(400);
    expect((await change(given.json.id, { rating: "THUMBS_DOWN" }, EVIL)).status).toBe(403);
    // A visitor cannot read what was stored: that is for admins.
    expect((await call(feedbackById.GET, { params: { id }, headers: visitor(SHOP) })).status).toBe(401);
    expect(await storedFeedback(id)).toEqual([expect.objectContaining({ rating: "THUMBS_UP", content: "" })]);
  });
});
