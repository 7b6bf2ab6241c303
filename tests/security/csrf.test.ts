import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, type CallResult, call } from "../support/http";
import type { ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";
import { multiStoreGraph } from "../support/docs-flows";
import { fixtureKey, systemCaller } from "../../dev/callers";
import { edge, node } from "../../lib/flow/__fixtures__/graphs";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow } from "../../lib/services/chatflows";
import { setupFirstAdmin } from "../../lib/services/users";

// Finding 5 of issue 10: a page on another origin of the same site made a signed-in admin's
// browser upsert a document (multipart, session cookie, no Origin check). Every cookie-borne write
// must now come from the studio's own origin; API keys, Basic and anonymous callers are not
// affected (a browser never attaches those on its own).

const OWN = "http://127.0.0.1:3000"; // NEXTAUTH_URL in tests/integration/setup.ts
const SIBLING = "http://shop.127.0.0.1.nip.io:3000"; // same site, other origin: cookies still ride along
const EVIL = "https://evil.example";
const ADMIN = { email: "admin@example.com", name: "Ada", password: "correct-horse-1" };

let stub: ModelStub;
let cookie: Record<string, string>;
let flowId: string;
let apiKey: string;

const fromSite = (origin: string, site: "cross-site" | "same-site" | "same-origin") => ({
  origin,
  "sec-fetch-site": site,
});
const chatflowCount = async () => (await getDb()).chatflow.count();
const chunkCount = async () => (await getDb()).documentChunk.count({ where: { chatflowId: flowId } });

function expectCsrfRefusal(res: Pick<CallResult, "status" | "json">) {
  expect(res.status).toBe(403);
  expect(res.json.error.code).toBe("forbidden");
  expect(res.json.error.message).toContain("Cross-origin request refused");
}

/** multipart/form-data to the real upsert route, as a form on another page would send it. */
async function upsertFile(headers: Record<string, string>, name = "planted.md") {
  const form = new FormData();
  form.append("files", new Blob([`${name}: refunds go to account 666.`]), name);
  const req = new Request(`${OWN}/api/v1/vector/upsert/${flowId}`, { method: "POST", headers, body: form });
  const res = await upsert.POST(req, { params: Promise.resolve({ id: flowId }) });
  return { status: res.status, json: await res.json() };
}

beforeAll(async () => {
  stub = await startServerModelStub();
  const admin = await setupFirstAdmin(ADMIN);
  cookie = await auth.session(admin.id, ADMIN.email);
  flowId = (
    await createChatflow({ name: "docs", graph: multiStoreGraph({ chatUrl: stub.url }) as never }, systemCaller)
  ).id;
  apiKey = await fixtureKey("automation", ["chatflows", "upsert"]);
});
afterAll(() => stub.close());

describe("cookie-authenticated writes from another origin", () => {
  it("refuses a cross-site multipart upsert with 403 and stores nothing (the reported attack)", async () => {
    const before = await chunkCount();
    expectCsrfRefusal(await upsertFile({ ...cookie, ...fromSite(EVIL, "cross-site") }));
    // The report's page was on the same site: SameSite=Lax cookies are sent, Sec-Fetch-Site says same-site.
    expectCsrfRefusal(await upsertFile({ ...cookie, ...fromSite(SIBLING, "same-site") }));
    expect(await chunkCount()).toBe(before);
  });

  it("refuses POST, PUT and DELETE, whatever the content type, and changes nothing", async () => {
    const count = await chatflowCount();
    const headers = { ...cookie, ...fromSite(EVIL, "cross-site") };
    expectCsrfRefusal(await call(chatflows.POST, { method: "POST", headers, body: { name: "planted" } }));
    // text/plain needs no CORS preflight: refused as a CSRF, not as a bad media type.
    const plain = { ...headers, "content-type": "text/plain" };
    expectCsrfRefusal(
      await call(chatflows.POST, { method: "POST", headers: plain, rawBody: JSON.stringify({ name: "planted" }) }),
    );
    expectCsrfRefusal(
      await call(chatflowById.PUT, { method: "PUT", params: { id: flowId }, headers, body: { name: "renamed" } }),
    );
    expectCsrfRefusal(await call(chatflowById.DELETE, { method: "DELETE", params: { id: flowId }, headers }));
    expectCsrfRefusal(
      await call(credentials.POST, {
        method: "POST",
        headers,
        body: { name: "x", type: "openAIApi", data: { apiKey: "sk-x" } },
      }),
    );
    expect(await chatflowCount()).toBe(count);
    const flow = await (await getDb()).chatflow.findUnique({ where: { id: flowId } });
    expect(flow?.name).toBe("docs");
  });

  it("checks Origin alone (older browsers send no Sec-Fetch-Site) and refuses the opaque origin 'null'", async () => {
    for (const origin of [EVIL, SIBLING, "null", "http://127.0.0.1:3001"]) {
      expectCsrfRefusal(
        await call(chatflows.POST, { method: "POST", headers: { ...cookie, origin }, body: { name: "planted" } }),
      );
    }
  });

  it("checks Sec-Fetch-Site alone (a browser may leave out Origin)", async () => {
    expectCsrfRefusal(
      await call(chatflows.POST, {
        method: "POST",
        headers: { ...cookie, "sec-fetch-site": "same-site" },
        body: { name: "x" },
      }),
    );
  });

  it("lets reads through: GET changes nothing, and cross-origin pages cannot read the answer without CORS", async () => {
    const res = await call(chatflows.GET, { headers: { ...cookie, ...fromSite(EVIL, "cross-site") } });
    expect(res.status).toBe(200);
  });
});

describe("writes that are not forged", () => {
  it("accepts the studio's own pages (Origin = NEXTAUTH_URL, Sec-Fetch-Site same-origin)", async () => {
    const created = await call(chatflows.POST, {
      method: "POST",
      headers: { ...cookie, ...fromSite(OWN, "same-origin") },
      body: { name: "mine" },
    });
    expect(created.status).toBe(201);
    const renamed = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: created.json.id },
      headers: { ...cookie, ...fromSite(OWN, "same-origin") },
      body: { name: "mine, renamed" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json.name).toBe("mine, renamed");
    const removed = await call(chatflowById.DELETE, {
      method: "DELETE",
      params: { id: created.json.id },
      headers: { ...cookie, ...fromSite(OWN, "same-origin") },
    });
    expect(removed.status).toBe(200);
  });

  it("accepts the origin of the Host the request was sent to (studio reached by another name than NEXTAUTH_URL)", async () => {
    const headers = {
      ...cookie,
      host: "studio.internal:8080",
      origin: "http://studio.internal:8080",
      "sec-fetch-site": "same-origin",
    };
    const res = await call(chatflows.POST, { method: "POST", headers, body: { name: "via host" } });
    expect(res.status).toBe(201);
  });

  it("trusts X-Forwarded-Host only behind a trusted proxy (TRUST_PROXY=true)", async () => {
    const headers = {
      ...cookie,
      "x-forwarded-host": "studio.example.com",
      origin: "https://studio.example.com",
      "sec-fetch-site": "same-origin",
    };
    expectCsrfRefusal(await call(chatflows.POST, { method: "POST", headers, body: { name: "via proxy" } }));
    process.env.TRUST_PROXY = "true";
    resetEnvForTests();
    try {
      expect((await call(chatflows.POST, { method: "POST", headers, body: { name: "via proxy" } })).status).toBe(201);
    } finally {
      delete process.env.TRUST_PROXY;
      resetEnvForTests();
    }
  });

  it("accepts a multipart upsert from the studio itself", async () => {
    const before = await chunkCount();
    const res = await upsertFile({ ...cookie, ...fromSite(OWN, "same-origin") }, "own.md");
    expect(res.status).toBe(200);
    expect(await chunkCount()).toBeGreaterThan(before);
  });

  it("accepts an API key from any origin: no cookie, nothing for another site to ride on", async () => {
    const res = await call(chatflows.POST, {
      method: "POST",
      headers: { ...auth.bearer(apiKey), ...fromSite(EVIL, "cross-site") },
      body: { name: "by key" },
    });
    expect(res.status).toBe(201);
    expect((await upsertFile({ ...auth.bearer(apiKey), ...fromSite(EVIL, "cross-site") }, "by-key.md")).status).toBe(
      200,
    );
  });

  it("accepts Basic from any origin", async () => {
    const res = await call(chatflows.POST, {
      method: "POST",
      headers: { ...auth.basic(ADMIN.email, ADMIN.password), origin: EVIL },
      body: { name: "by basic" },
    });
    expect(res.status).toBe(201);
  });

  it("keeps anonymous prediction on a public chatflow working from the widget's host site", async () => {
    const shop = "http://127.0.0.1:5501";
    const graph = {
      nodes: [node("model", "chatOpenAICompatible", {}), node("conv", "conversationChain", {})],
      edges: [edge("model", "chatModel", "conv", "model")],
    };
    const created = await call(chatflows.POST, {
      method: "POST",
      headers: { ...cookie, ...fromSite(OWN, "same-origin") },
      body: { name: "public", graph, isPublic: true, allowedOrigins: [shop] },
    });
    expect(created.status).toBe(201);
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id: created.json.id },
      headers: { ...fromSite(shop, "cross-site"), "x-switchyard-client-ip": "10.7.0.1" },
      body: { question: "hello" },
    });
    expect(res.status).toBe(200);
    expect(typeof res.json.text).toBe("string");
  });
});
