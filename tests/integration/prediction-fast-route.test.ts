import { once } from "node:events";
import type http from "node:http";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, demoBrain, type ModelStub } from "../../dev/model-stub/server";
import { parseSse } from "../../dev/route-server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { createAppServer } from "../../server/request-guard.mjs";
import { API_RESPONSE_HEADERS, createFastRoutes } from "../../server/fast-routes.mjs";
import { staticSecurityHeaders } from "../../lib/http/security-headers";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { getDb } from "../../lib/db/client";

// `npm start` serves POST /api/v1/prediction/<uuid> past Next (server/fast-routes.mjs): the same
// handler, the same security headers as proxy.ts gives API answers, everything else left to Next
// (here a stand-in that says it was asked), and requests held until start-up has finished.

let stub: ModelStub;
let server: http.Server;
let url: string;
let key: string;
let conversationId: string;
const nextSaw: string[] = [];
/** Every request the prediction handler was called with: whether a request reached it. */
const handled: Request[] = [];
let finishStartup: () => void = () => {};
/** Lets the microtasks queued by what just happened run (a promise chain started by an event). */
const afterMicrotasks = () => new Promise((resolve) => setImmediate(resolve));

beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  conversationId = (
    await createChatflow({ name: "conv", graph: exampleFlow("conversation.json").graph as never }, systemCaller)
  ).id;
  key = (await createApiKey({ name: "k", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner())).key;
  const started = new Promise<void>((resolve) => (finishStartup = resolve));
  const next = (req: http.IncomingMessage, res: http.ServerResponse) => {
    nextSaw.push(`${req.method} ${req.url}`);
    res.writeHead(299).end("next");
  };
  const handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => {
    handled.push(req);
    return prediction.POST(req, ctx);
  };
  server = createAppServer(next, createFastRoutes(handler, started));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await stub.close();
  await new Promise((resolve) => server.close(resolve));
});

const post = (path: string, body: object, headers: Record<string, string> = auth.bearer(key)) =>
  fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("the prediction route past Next", () => {
  it("holds predictions until start-up has finished, then answers them", async () => {
    const arrived = new Promise((resolve) => server.once("request", resolve));
    // A body of unknown length (chunked) is handed to the handler as a stream, with nothing read
    // first: a request that is not held reaches the handler in the microtasks after it arrives.
    const pending = fetch(`${url}/api/v1/prediction/${conversationId}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth.bearer(key) },
      body: new Blob([JSON.stringify({ question: "Hello", chatId: "early" })]).stream(),
      duplex: "half",
    } as RequestInit);
    await arrived;
    await afterMicrotasks();
    expect(handled).toHaveLength(0);
    finishStartup();
    const res = await pending;
    expect(res.status).toBe(200);
    expect((await res.json()).chatId).toBe("early");
    expect(handled).toHaveLength(1);
  });

  it("answers JSON with the handler's body and proxy.ts's API security headers", async () => {
    const res = await post(`/api/v1/prediction/${conversationId}`, {
      question: "Hello there",
      overrideConfig: { sessionId: "fast-1" },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    // One write with its length, not a chunked body.
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    const body = JSON.parse(text);
    expect(body).toMatchObject({ question: "Hello there", sessionId: "fast-1", memoryType: "Buffer Memory" });
    expect(typeof body.text).toBe("string");
    const expected = staticSecurityHeaders(`/api/v1/prediction/${conversationId}`);
    expect(API_RESPONSE_HEADERS).toEqual(expected);
    for (const [name, value] of Object.entries(expected)) expect(res.headers.get(name)).toBe(value);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const db = await getDb();
    expect(await db.chatMessage.count({ where: { sessionId: "fast-1" } })).toBe(2);
  });

  it("streams SSE events as the handler makes them", async () => {
    const res = await post(`/api/v1/prediction/${conversationId}`, { question: "Hello", streaming: true });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("content-length")).toBeNull();
    expect(res.headers.get("content-security-policy")).toBe(API_RESPONSE_HEADERS["Content-Security-Policy"]);
    const names = parseSse(await res.text()).map((e) => e.event);
    expect(names[0]).toBe("start");
    expect(names.filter((n) => n === "token").length).toBeGreaterThan(1);
    expect(names.at(-1)).toBe("end");
  });

  for (const streaming of [true, false])
    it(`aborts the run when the client goes away (${streaming ? "SSE" : "JSON"}): nothing is stored`, async () => {
      let modelCalled!: () => void;
      const called = new Promise<void>((resolve) => (modelCalled = resolve));
      // The model waits until its client hangs up: the run giving up its model call.
      const modelCallCut = new Promise<void>((resolve) =>
        stub.setBrain(async ({ signal }) => {
          modelCalled();
          await new Promise((r) => signal?.addEventListener("abort", r));
          resolve();
          return { content: "too late" };
        }),
      );
      const chatId = `fast-abort-${streaming}`;
      try {
        const abort = new AbortController();
        const sent = fetch(`${url}/api/v1/prediction/${conversationId}`, {
          method: "POST",
          signal: abort.signal,
          headers: { "content-type": "application/json", ...auth.bearer(key) },
          body: JSON.stringify({ question: "hello?", streaming, chatId }),
        }).catch(() => undefined);
        await called;
        abort.abort();
        await sent;
        await modelCallCut;
        // A later question in the same chat is answered after the aborted run gave up: it is the
        // only exchange stored, and its history holds no turn of the aborted run.
        stub.setBrain(demoBrain);
        expect((await post(`/api/v1/prediction/${conversationId}`, { question: "still there?", chatId })).status).toBe(
          200,
        );
        const stored = await (await getDb()).chatMessage.findMany({ where: { chatId }, orderBy: { createdAt: "asc" } });
        expect(stored.map((m) => m.role)).toEqual(["userMessage", "apiMessage"]);
        expect(stored[0].content).toBe("still there?");
        const asked = stub.requests.at(-1)?.body as { messages: { role: string; content: string }[] };
        expect(asked.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["still there?"]);
      } finally {
        stub.setBrain(demoBrain);
      }
    });

  it("takes a body sent whole, chunked or over 64 KB alike; a body cut short is dropped with nothing stored", async () => {
    const path = `/api/v1/prediction/${conversationId}`;
    const raw = (body: string, headers: Record<string, string | number>, send: (r: http.ClientRequest) => void) =>
      new Promise<{ status: number; text: string } | "closed">((resolve) => {
        void body;
        const req = httpRequest(`${url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...auth.bearer(key), ...headers },
        });
        req.on("response", (res) => {
          let text = "";
          res.on("data", (d) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on("error", () => resolve("closed"));
        send(req);
      });
    // Unknown top-level fields are ignored (Flowise clients send some): `pad` makes a body over 64 KB.
    const ask = (chatId: string, pad = "") => JSON.stringify({ question: `Hello${pad.slice(0, 30_000)}`, chatId, pad });
    const whole = ask("body-whole");
    const sentWhole = await raw(whole, { "content-length": Buffer.byteLength(whole) }, (r) => r.end(whole));
    const chunked = ask("body-chunked");
    const sentChunked = await raw(chunked, { "transfer-encoding": "chunked" }, (r) => {
      r.write(chunked.slice(0, 10));
      setTimeout(() => r.end(chunked.slice(10)), 20);
    });
    const large = ask("body-large", " x".repeat(36 * 1024));
    expect(Buffer.byteLength(large)).toBeGreaterThan(64 * 1024);
    const sentLarge = await raw(large, { "content-length": Buffer.byteLength(large) }, (r) => r.end(large));
    for (const [sent, chatId] of [
      [sentWhole, "body-whole"],
      [sentChunked, "body-chunked"],
      [sentLarge, "body-large"],
    ] as const) {
      expect(sent).not.toBe("closed");
      if (sent === "closed") continue;
      expect({ status: sent.status, chatId: JSON.parse(sent.text).chatId }).toEqual({ status: 200, chatId });
    }
    const stored = await (await getDb()).chatMessage.findFirst({
      where: { chatId: "body-large", role: "userMessage" },
    });
    expect(stored?.content).toBe(JSON.parse(large).question);
    const cut = JSON.stringify({ question: "Hello", chatId: "body-cut" });
    const cutArrived = new Promise<http.IncomingMessage>((resolve) => server.once("request", resolve));
    const handledBefore = handled.length;
    // A slow client: part of the body, then it goes away (the pause paces the sender).
    const sentCut = await raw(cut, { "content-length": Buffer.byteLength(cut) + 50 }, (r) => {
      r.write(cut);
      setTimeout(() => r.destroy(), 50);
    });
    expect(sentCut).toBe("closed");
    // The server sees the request end unfinished; a body handed on anyway would reach the handler
    // in the microtasks that follow.
    const cutOnServer = await cutArrived;
    if (!cutOnServer.closed) await once(cutOnServer, "close");
    await afterMicrotasks();
    expect(handled).toHaveLength(handledBefore);
    expect(await (await getDb()).chatMessage.count({ where: { chatId: "body-cut" } })).toBe(0);
    expect((await post(path, { question: "still here" })).status).toBe(200);
  });

  it("takes Flowise's multipart form, read whole before the handler like a JSON body", async () => {
    const form = new FormData();
    form.set("question", "Hello from a form");
    form.set("overrideConfig", JSON.stringify({ sessionId: "fast-form" }));
    const res = await fetch(`${url}/api/v1/prediction/${conversationId}`, {
      method: "POST",
      headers: auth.bearer(key),
      body: form,
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ question: "Hello from a form", sessionId: "fast-form" });
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    const db = await getDb();
    expect(await db.chatMessage.count({ where: { sessionId: "fast-form" } })).toBe(2);
  });

  it("answers errors in the error shape with the same headers (bad key, bad body)", async () => {
    const badKey = await post(`/api/v1/prediction/${conversationId}`, { question: "hi" }, auth.bearer("sy_nope"));
    expect(badKey.status).toBe(401);
    expect((await badKey.json()).error.code).toBe("unauthorized");
    expect(badKey.headers.get("x-frame-options")).toBe("DENY");
    const badBody = await post(`/api/v1/prediction/${conversationId}`, { question: 42 });
    expect(badBody.status).toBe(400);
    expect((await badBody.json()).error.code).toBe("validation_failed");
  });

  it("leaves every other request to Next: other methods, other paths, ids that are not UUIDs", async () => {
    nextSaw.length = 0;
    const id = conversationId;
    expect((await fetch(`${url}/api/v1/prediction/${id}`)).status).toBe(299);
    expect((await fetch(`${url}/api/v1/prediction/${id}`, { method: "OPTIONS" })).status).toBe(299);
    // A trailing slash is dropped by the server before any route (Flowise's clients send one).
    expect((await post(`/api/v1/prediction/${id}/`, { question: "hi" })).status).toBe(200);
    expect((await post("/api/v1/prediction/not-a-uuid", { question: "hi" })).status).toBe(299);
    expect((await post(`/api/v1/prediction/${id}/x`, { question: "hi" })).status).toBe(299);
    expect((await post(`/api/v1/chatflows`, { name: "x" })).status).toBe(299);
    expect(nextSaw).toEqual([
      `GET /api/v1/prediction/${id}`,
      `OPTIONS /api/v1/prediction/${id}`,
      "POST /api/v1/prediction/not-a-uuid",
      `POST /api/v1/prediction/${id}/x`,
      "POST /api/v1/chatflows",
    ]);
  });

  it("still refuses malformed paths before any route (request guard first)", async () => {
    const res = await post(`/api/v1/prediction/${conversationId}%ff`, { question: "hi" });
    expect(res.status).toBe(400);
  });
});
