import type http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import type { ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";
import { rawRequest } from "../support/raw-http";
import { loadApiRoutes } from "../../dev/route-server";
import { edge, node } from "../../lib/flow/__fixtures__/graphs";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as chatflow from "../../app/api/v1/chatflows/[id]/route";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as apikeys from "../../app/api/v1/apikey/route";
import * as messages from "../../app/api/v1/chatmessage/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import * as nextAuth from "../../app/api/auth/[...nextauth]/route";
import { createAppServer } from "../../server/request-guard.mjs";
import { getDb } from "../../lib/db/client";
import { setupFirstAdmin } from "../../lib/services/users";

// Finding 6 (caller mistakes that answered 500) and the generic rule of finding 7 (unknown query
// parameters were ignored, above all on DELETE).
let stub: ModelStub;
let session: Record<string, string>;
let flowId: string;

const graph = {
  nodes: [node("model", "chatOpenAICompatible", {}), node("conv", "conversationChain", {})],
  edges: [edge("model", "chatModel", "conv", "model")],
};
const predict = (body: unknown, headers: Record<string, string> = session) =>
  call(prediction.POST, { method: "POST", params: { id: flowId }, headers, body });
const messageCount = async () => (await getDb()).chatMessage.count({ where: { chatflowId: flowId } });
const savedChatflow = async () => (await getDb()).chatflow.findUniqueOrThrow({ where: { id: flowId } });

beforeAll(async () => {
  stub = await startServerModelStub();
  const admin = await setupFirstAdmin({ email: "admin@example.com", name: "Admin", password: "admin-pass-123" });
  session = await auth.session(admin.id, "admin@example.com");
  const res = await call(chatflows.POST, { method: "POST", headers: session, body: { name: "Flow", graph } });
  flowId = res.json.id;
  expect((await predict({ question: "hello", overrideConfig: { sessionId: "s1" } })).status).toBe(200);
});
afterAll(() => stub.close());

describe("NUL bytes and over-deep JSON are refused (400 naming the field) before any model call or write", () => {
  it("a NUL in the question, the session id or the history", async () => {
    const before = { model: stub.requests.length, rows: await messageCount() };
    const cases: [unknown, string][] = [
      [{ question: "hi\u0000there" }, "body.question"],
      [{ question: "hi", overrideConfig: { sessionId: "s\u0000" } }, "body.overrideConfig.sessionId"],
      [{ question: "hi", history: [{ role: "userMessage", content: "\u0000" }] }, "body.history.0.content"],
      [{ question: "hi", chatId: "a\u0000b" }, "body.chatId"],
    ];
    for (const [body, field] of cases) {
      for (const streaming of [false, true]) {
        const res = await predict({ ...(body as object), streaming });
        expect(res.status, field).toBe(400);
        expect(res.json.error).toEqual({
          code: "bad_request",
          message: `${field}: must not contain a NUL character.`,
          requestId: expect.any(String),
        });
      }
    }
    expect(stub.requests.length).toBe(before.model);
    expect(await messageCount()).toBe(before.rows);
  });

  it("a 3,000-deep object in node inputs saved with PUT /chatflows/{id}", async () => {
    const before = await savedChatflow();
    const deep = `${'{"a":'.repeat(3000)}1${"}".repeat(3000)}`;
    const body = `{"graph":{"nodes":[{"id":"model","type":"chatOpenAICompatible","position":{"x":0,"y":0},"data":{"inputs":{"temperature":${deep}}}}],"edges":[]}}`;
    const res = await call(chatflow.PUT, {
      method: "PUT",
      params: { id: flowId },
      headers: { ...session, "content-type": "application/json" },
      rawBody: body,
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe("body: JSON is nested deeper than 64 levels.");
    expect((await savedChatflow()).updatedAt).toEqual(before.updatedAt);
  });

  it("a NUL in node inputs or in a key", async () => {
    const withNul = {
      graph: { ...graph, nodes: [node("model", "chatOpenAICompatible", { modelName: "gpt\u0000" }), graph.nodes[1]] },
    };
    const res = await call(chatflow.PUT, { method: "PUT", params: { id: flowId }, headers: session, body: withNul });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe("body.graph.nodes.0.data.inputs.modelName: must not contain a NUL character.");
    const key = await call(chatflows.POST, {
      method: "POST",
      headers: session,
      body: { name: "x", chatbotConfig: { "a\u0000": 1 } },
    });
    expect(key.status).toBe(400);
    expect(key.json.error.message).toBe("body.chatbotConfig: a key must not contain a NUL character.");
  });

  it("a NUL in a multipart upsert field", async () => {
    const form = new FormData();
    form.append("files", new Blob(["hello"], { type: "text/plain" }), "a.txt");
    form.append("sessionId", "x\u0000y");
    const req = new Request(`http://127.0.0.1/api/v1/vector/upsert/${flowId}`, {
      method: "POST",
      headers: session,
      body: form,
    });
    const res = await upsert.POST(req, { params: Promise.resolve({ id: flowId }) });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toBe('Form field "sessionId": must not contain a NUL character.');
  });
});

describe("unknown query parameters are refused with 400 naming them, never ignored", () => {
  it("DELETE /chatmessage/{id} with an undeclared filter deletes nothing", async () => {
    const before = await messageCount();
    expect(before).toBeGreaterThan(0);
    const res = await call(messages.DELETE, {
      method: "DELETE",
      params: { id: flowId },
      path: "/x?sessionId=s1&feedbackTypo=THUMBS_UP&Nope=1",
      headers: session,
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
    expect(res.json.error.message).toContain("'feedbackTypo', 'Nope'");
    expect(res.json.error.details).toEqual([
      { field: "query.feedbackTypo", message: "is not a known parameter" },
      { field: "query.Nope", message: "is not a known parameter" },
    ]);
    expect(await messageCount()).toBe(before);
  });

  it("a repeated filter is refused rather than one of its values picked", async () => {
    const res = await call(messages.DELETE, {
      method: "DELETE",
      params: { id: flowId },
      path: "/x?sessionId=s1&sessionId=other",
      headers: session,
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe("query.sessionId: given more than once.");
  });

  it("routes take only their declared parameters (GET /apikey: limit and cursor; DELETE /chatflows/{id}: none)", async () => {
    const list = await call(apikeys.GET, { path: "/x?page=2", headers: session });
    expect(list.status).toBe(400);
    expect(list.json.error.message).toBe("Unknown query parameter 'page' (accepted: limit, cursor).");
    const del = await call(chatflow.DELETE, {
      method: "DELETE",
      params: { id: flowId },
      path: "/x?force=true",
      headers: session,
    });
    expect(del.status).toBe(400);
    expect(await savedChatflow()).toBeTruthy();
  });

  it("declared parameters still work", async () => {
    const res = await call(messages.GET, {
      params: { id: flowId },
      path: "/x?sessionId=s1&order=DESC&limit=5",
      headers: session,
    });
    expect(res.status).toBe(200);
    expect(res.json.length).toBe(2);
  });
});

describe("methods a route does not implement", () => {
  it("every route file exports GET, HEAD-or-GET, POST, PUT, PATCH and DELETE, so Next never answers an empty 405", async () => {
    for (const route of await loadApiRoutes()) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"])
        expect(typeof route.module[method], `${route.file} ${method}`).toBe("function");
      if (!route.module.GET) expect(typeof route.module.HEAD, route.file).toBe("function");
    }
  });

  it("answers 405 in the error shape with an Allow header listing the implemented methods", async () => {
    const res = await call(chatflow.POST as never, {
      method: "POST",
      path: `/api/v1/chatflows/${flowId}`,
      headers: session,
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("DELETE, GET, HEAD, OPTIONS, PUT");
    expect(res.json.error).toEqual({
      code: "method_not_allowed",
      message: `Method POST is not allowed on /api/v1/chatflows/${flowId}; allowed: DELETE, GET, HEAD, OPTIONS, PUT.`,
      requestId: expect.any(String),
    });
  });
});

describe("next-auth POSTs that its client would never send", () => {
  const post = (type: string | null, body: string | Buffer) =>
    call(nextAuth.POST as never, {
      method: "POST",
      path: "/api/auth/callback/credentials",
      params: { nextauth: ["callback", "credentials"] } as never,
      headers: type ? { "content-type": type } : {},
      rawBody: body as string,
    });

  it("a JSON content type (with or without JSON), no content type, or multipart: 415", async () => {
    for (const [type, body] of [
      ["application/json", "not json"],
      ["application/json", '{"email":"a"}'],
      [null, "x"],
      ["multipart/form-data; boundary=x", "--x--"],
    ] as const) {
      const res = await post(type, body);
      expect(res.status, `${type}`).toBe(415);
      expect(res.json.error.code).toBe("unsupported_media_type");
    }
  });

  it("a form with a bad percent-escape, invalid UTF-8 or a NUL: 400", async () => {
    for (const body of [
      "email=%ff&password=x",
      "email=%E0%A4%A",
      "email=a%00b",
      Buffer.from([0x65, 0x3d, 0xff, 0xfe]),
    ]) {
      const res = await post("application/x-www-form-urlencoded", body);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("bad_request");
    }
  });

  it("an action next-auth does not have: 404 in the error shape (next-auth itself answers plain text)", async () => {
    for (const [method, handler] of [
      ["GET", nextAuth.GET],
      ["POST", nextAuth.POST],
    ] as const) {
      const res = await call(handler as never, {
        method,
        path: "/api/auth/v1/nope",
        params: { nextauth: ["v1", "nope"] } as never,
      });
      expect(res.status).toBe(404);
      expect(res.json.error).toEqual({ code: "not_found", message: "No sign-in route /api/auth/v1/nope." });
    }
  });

  it("a body far larger than a sign-in form: 413", async () => {
    expect((await post("application/x-www-form-urlencoded", `email=${"a".repeat(20_000)}`)).status).toBe(413);
  });
});

describe("the server of npm start (server/start.mjs's createAppServer)", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = createAppServer((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("reached Next"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );

  it("TRACE: 405 in the error shape with Allow, never reaching Next", async () => {
    const res = await rawRequest(port, { method: "TRACE", target: "/api/v1/ping" });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(JSON.parse(res.body).error.code).toBe("method_not_allowed");
  });

  it("%ff in the path: 400 in the error shape", async () => {
    const res = await rawRequest(port, { method: "GET", target: "/api/v1/chatflows/%ff" });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.code).toBe("bad_request");
  });

  it("requests node's parser rejects (a lower-case method, a bad header) and CONNECT get the error shape too", async () => {
    for (const [method, headers, status] of [
      ["get", {}, 400],
      ["GET", { "bad header": "x" }, 400],
      ["CONNECT", {}, 405],
    ] as const) {
      const res = await rawRequest(port, {
        method,
        target: method === "CONNECT" ? "127.0.0.1:1" : "/api/v1/ping",
        headers,
      });
      expect(res.status, method).toBe(status);
      expect(JSON.parse(res.body).error.message).toBeTruthy();
    }
  });

  it("a well-formed request reaches Next", async () => {
    const res = await rawRequest(port, { method: "GET", target: "/api/v1/ping?x=%C3%A9" });
    expect(res).toMatchObject({ status: 200, body: "reached Next" });
  });
});
