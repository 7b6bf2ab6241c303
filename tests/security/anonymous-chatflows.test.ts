import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, type CallResult, call } from "../support/http";
import type { ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";
import { edge, node } from "../../lib/flow/__fixtures__/graphs";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as publicConfig from "../../app/api/v1/public-chatbotConfig/[id]/route";
import * as streaming from "../../app/api/v1/chatflows-streaming/[id]/route";
import * as chatflowRoutes from "../../app/api/v1/chatflows/route";
import * as chatflowUploads from "../../app/api/v1/chatflows-uploads/[id]/route";
import * as feedback from "../../app/api/v1/feedback/[id]/route";
import * as leads from "../../app/api/v1/leads/route";
import * as uploadFile from "../../app/api/v1/get-upload-file/route";
import { resetEnvForTests } from "../../lib/env";
import { setupFirstAdmin } from "../../lib/services/users";

// Finding 8: anonymous callers could tell a private chatflow from an unknown one (401 vs 404), and
// a public chatflow without its own limit took unlimited requests.
const UNKNOWN = "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b";
let stub: ModelStub;
let session: Record<string, string>;

const graph = {
  nodes: [node("model", "chatOpenAICompatible", {}), node("conv", "conversationChain", {})],
  edges: [edge("model", "chatModel", "conv", "model")],
};

async function createFlow(body: object): Promise<string> {
  const res = await call(chatflowRoutes.POST, {
    method: "POST",
    headers: session,
    body: { name: "Flow", graph, ...body },
  });
  expect(res.status).toBe(201);
  return res.json.id;
}

const ip = (n: number) => ({ "x-switchyard-client-ip": `10.9.0.${n}` });

/** Every anonymous route, called for one id; the answer with the id masked. */
const anonymousRoutes: Record<string, (id: string) => Promise<CallResult>> = {
  prediction: (id) =>
    call(prediction.POST, { method: "POST", params: { id }, headers: ip(1), body: { question: "hi" } }),
  "prediction (streaming)": (id) =>
    call(prediction.POST, {
      method: "POST",
      params: { id },
      headers: ip(1),
      body: { question: "hi", streaming: true },
    }),
  "public-chatbotConfig": (id) =>
    call(publicConfig.GET, { params: { id }, headers: { origin: "https://shop.example" } }),
  "chatflows-streaming": (id) => call(streaming.GET, { params: { id } }),
  // What flowise-embed calls beside predictions.
  "chatflows-uploads": (id) => call(chatflowUploads.GET, { params: { id } }),
  feedback: (id) =>
    call(feedback.POST, {
      method: "POST",
      params: { id },
      headers: ip(2),
      body: { chatId: "c", messageId: UNKNOWN, rating: "THUMBS_UP" },
    }),
  leads: (id) =>
    call(leads.POST, { method: "POST", headers: ip(3), body: { chatflowid: id, chatId: "c", name: "Ada" } }),
  "get-upload-file": (id) => call(uploadFile.GET, { path: `/x?chatflowId=${id}&chatId=c&fileName=a.png` }),
};

beforeAll(async () => {
  stub = await startServerModelStub({ PUBLIC_RATE_LIMIT_MAX: "3", PUBLIC_RATE_LIMIT_WINDOW_SEC: "60" });
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});
afterAll(async () => {
  delete process.env.PUBLIC_RATE_LIMIT_MAX;
  delete process.env.PUBLIC_RATE_LIMIT_WINDOW_SEC;
  resetEnvForTests();
  await stub.close();
});

describe("anonymous callers cannot tell a private chatflow from an unknown one", () => {
  // The request id differs per request (it is checked to be there, then left out of the comparison).
  const mask = (r: CallResult, id: string) => {
    const body = JSON.parse(JSON.stringify(r.json).replaceAll(id, "<id>"));
    if (body?.error) {
      expect(body.error.requestId).toEqual(expect.any(String));
      delete body.error.requestId;
    }
    return { status: r.status, body };
  };
  const notFound = { status: 404, body: { error: { code: "not_found", message: "Chatflow <id> not found." } } };
  // Where a key would let the caller in, the 404 says so (in the same words for private and unknown ids).
  const keyHint = {
    status: 404,
    body: {
      error: {
        code: "not_found",
        message:
          "Chatflow <id> not found. If it is private, send an API key with the `predict` permission: Authorization: Bearer <key>.",
      },
    },
  };
  // flowise-sdk asks chatflows-streaming without its key: the anonymous answer is the same for every id.
  const expected: Record<string, unknown> = {
    prediction: keyHint,
    "prediction (streaming)": keyHint,
    "chatflows-uploads": keyHint,
    feedback: keyHint,
    leads: keyHint,
    "chatflows-streaming": { status: 200, body: { isStreaming: true } },
    "get-upload-file": {
      status: 404,
      body: { error: { code: "not_found", message: "File a.png not found in chat c." } },
    },
  };

  for (const [name, send] of Object.entries(anonymousRoutes)) {
    it(`${name}: the same status, code and message for both`, async () => {
      const privateId = await createFlow({ isPublic: false, allowedOrigins: ["https://shop.example"] });
      const forPrivate = mask(await send(privateId), privateId);
      expect(forPrivate).toEqual(mask(await send(UNKNOWN), UNKNOWN));
      expect(forPrivate).toEqual(expected[name] ?? notFound);
    });
  }

  it("signed-in users still see the private chatflow, and get 404 for an unknown one", async () => {
    const privateId = await createFlow({ isPublic: false });
    expect((await call(streaming.GET, { params: { id: privateId }, headers: session })).status).toBe(200);
    expect((await call(streaming.GET, { params: { id: UNKNOWN }, headers: session })).status).toBe(404);
    expect((await call(publicConfig.GET, { params: { id: privateId }, headers: session })).status).toBe(200);
  });
});

describe("public chatflows without their own limit get the server's default", () => {
  it("allows PUBLIC_RATE_LIMIT_MAX anonymous predictions per client IP per chatflow, then 429 with Retry-After", async () => {
    const id = await createFlow({ isPublic: true });
    const other = await createFlow({ isPublic: true });
    const ask = (flow: string, n: number) =>
      call(prediction.POST, { method: "POST", params: { id: flow }, headers: ip(n), body: { question: "hi" } });
    for (let i = 0; i < 3; i++) {
      const ok = await ask(id, 20);
      expect(ok.status).toBe(200);
      // Where the caller stands, on every limited answer (X-RateLimit-*: per window, left, seconds to reset).
      expect(ok.headers.get("x-ratelimit-limit")).toBe("3");
      expect(ok.headers.get("x-ratelimit-remaining")).toBe(String(2 - i));
      expect(Number(ok.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
    }
    const limited = await ask(id, 20);
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("x-ratelimit-reset")).toBe(limited.headers.get("retry-after"));
    // Counted per client IP and per chatflow.
    expect((await ask(id, 21)).status).toBe(200);
    expect((await ask(other, 20)).status).toBe(200);
  });

  it("counts anonymous feedback and leads like predictions (a visitor cannot flood them)", async () => {
    const id = await createFlow({ isPublic: true, chatbotConfig: { leads: { status: true } } });
    const lead = () =>
      call(leads.POST, { method: "POST", headers: ip(50), body: { chatflowid: id, chatId: "c", name: "Ada" } });
    for (let i = 0; i < 3; i++) expect((await lead()).status).toBe(200);
    const limited = await lead();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("uses the chatflow's own limit when it has one", async () => {
    const id = await createFlow({ isPublic: true, rateLimit: { max: 5, windowSec: 60 } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await call(prediction.POST, { method: "POST", params: { id }, headers: ip(30), body: { question: "hi" } }))
          .status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("does not limit signed-in studio users by the public default", async () => {
    const id = await createFlow({ isPublic: true });
    for (let i = 0; i < 5; i++) {
      const res = await call(prediction.POST, {
        method: "POST",
        params: { id },
        headers: { ...ip(40), ...session },
        body: { question: "hi" },
      });
      expect(res.status).toBe(200);
    }
  });
});
