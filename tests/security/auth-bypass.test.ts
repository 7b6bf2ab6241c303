import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createChatflow } from "../../lib/services/chatflows";
import { setupFirstAdmin } from "../../lib/services/users";
import { systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";
import { apiRoutes, isAnonymousRoute, callRoute, fillPath, paramsOf, type ApiRoute } from "./support/routes";

// Flowise's auth bypasses came from a URL allow-list checked by regex on the raw path
// (/API/V1/…, /api/v1/ping/../…, encoded dots). Here every handler authenticates its own callers
// whatever URL reached it; these tests hold every route to that, with every path, encoding and
// header trick, at the handler. e2e/auth-bypass.spec.ts sends the raw paths through the real server.

const ADMIN = { email: "admin@bypass.test", password: "admin-password-1", name: "Admin" };
let routes: ApiRoute[];
let ids: Record<string, string>;

beforeAll(async () => {
  await setupFirstAdmin(ADMIN);
  const flow = exampleFlow("conversation.json");
  const id = (await createChatflow({ name: "private", graph: flow.graph as never }, systemCaller)).id;
  // Well-formed values for every other path param: a malformed id is a 400 before authentication.
  ids = { id, nodeId: "memory", n: "1", caseId: randomUUID(), runId: randomUUID() };
  routes = await apiRoutes();
});

/** Request URLs that name the route in tricky ways, and whether the trick sits in the query. */
function trickUrls(path: string): { url: string; inQuery: boolean }[] {
  const rest = path.replace(/^\/api\/v1\//, "");
  const origin = "http://127.0.0.1:3000";
  return [
    { url: `${origin}${path}`, inQuery: false },
    { url: `${origin}${path.toUpperCase()}`, inQuery: false },
    { url: `${origin}/api/v1/ping/../${rest}`, inQuery: false },
    { url: `${origin}/api/v1/ping/%2e%2e/${rest}`, inQuery: false },
    { url: `${origin}/api/v1/ping/%2E%2E%2F${rest}`, inQuery: false },
    { url: `${origin}//api/v1//${rest}`, inQuery: false },
    { url: `${origin}${path}/`, inQuery: false },
    { url: `${origin}${path};/api/v1/ping`, inQuery: false },
    { url: `${origin}/api/v1%2f${rest}`, inQuery: false },
    { url: `${origin}${path}?/api/v1/ping`, inQuery: true },
    { url: `${origin}${path}?x=/api/v1/ping&public=true`, inQuery: true },
  ];
}

/** Headers proxies and frameworks have trusted: none may stand in for credentials. */
const TRICK_HEADERS: Record<string, string>[] = [
  {},
  { "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1", "x-switchyard-client-ip": "127.0.0.1" },
  { "x-original-url": "/api/v1/ping", "x-rewrite-url": "/api/v1/ping", "x-forwarded-uri": "/api/v1/ping" },
  { "x-middleware-subrequest": "middleware:middleware:middleware:middleware:middleware" },
  { host: "localhost", "x-forwarded-host": "localhost", origin: "http://127.0.0.1:3000" },
  { authorization: "Bearer " },
  { authorization: "Bearer sy_00000000_" },
  { authorization: `Basic ${Buffer.from(`${ADMIN.email}:`).toString("base64")}` },
  { authorization: `basic ${Buffer.from(`${ADMIN.email}`).toString("base64")}` },
  { cookie: "next-auth.session-token=; __Secure-next-auth.session-token=x" },
];

/** Answers {isStreaming} to anonymous callers for any id, private or unknown alike (flowise-sdk asks it without its key). */
const STREAMING_CHECK = "/api/v1/chatflows-streaming/[id]";

const protectedRoutes = () => routes.filter((r) => !isAnonymousRoute(r) && r.method !== "OPTIONS");

describe("auth bypass by path, case, encoding and headers", () => {
  it("finds the protected routes on disk", () => {
    expect(protectedRoutes().length).toBeGreaterThan(20);
    expect(protectedRoutes().map((r) => `${r.method} ${r.template}`)).toContain("GET /api/v1/apikey");
  });

  it("answers 401 on every protected route to every path trick", async () => {
    const wrong: string[] = [];
    for (const r of protectedRoutes()) {
      for (const { url, inQuery } of trickUrls(fillPath(r.template, ids))) {
        const res = await callRoute(r, url, paramsOf(r.template, ids));
        // A trick in the query may be refused as an unknown parameter first: refused either way.
        const ok = res.status === 401 || (inQuery && res.status === 400);
        if (!ok) wrong.push(`${r.method} ${url} → ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("answers 401 on every protected route whatever proxy or auth-looking headers say", async () => {
    const wrong: string[] = [];
    for (const r of protectedRoutes()) {
      for (const headers of TRICK_HEADERS) {
        const res = await callRoute(
          r,
          `http://127.0.0.1:3000${fillPath(r.template, ids)}`,
          paramsOf(r.template, ids),
          headers,
        );
        // Wrong Basic passwords are also rate limited (429): refused either way.
        if (res.status !== 401 && !(res.status === 429 && headers.authorization?.toLowerCase().startsWith("basic")))
          wrong.push(`${r.method} ${r.template} ${JSON.stringify(headers)} → ${res.status}`);
        else if (res.status === 401) expect(JSON.parse(res.text).error.code).toBe("unauthorized");
      }
    }
    expect(wrong).toEqual([]);
  });

  it("gives an anonymous caller nothing of a private chatflow on the public routes, whatever the path", async () => {
    const publicOnes = routes.filter(
      (r) =>
        r.template.includes("[id]") && isAnonymousRoute(r) && r.method !== "OPTIONS" && r.template !== STREAMING_CHECK,
    );
    expect(publicOnes.map((r) => r.template)).toContain("/api/v1/prediction/[id]");
    for (const r of publicOnes) {
      for (const { url } of trickUrls(fillPath(r.template, ids))) {
        for (const headers of TRICK_HEADERS.slice(0, 5)) {
          const res = await callRoute(r, url, paramsOf(r.template, ids), headers);
          expect([400, 401, 403, 404], `${r.method} ${url} ${JSON.stringify(headers)}`).toContain(res.status);
        }
      }
    }
  });

  // Finding 8 (oracles; not this part's to fix): an anonymous caller gets 200 {isStreaming:true} for
  // a private chatflow and 404 for an unknown id, so it can tell them apart. Flip to `it` once fixed.
  it("answers an anonymous caller the same for a private chatflow as for an unknown one (chatflows-streaming)", async () => {
    const r = routes.find((x) => x.template === STREAMING_CHECK && x.method === "GET")!;
    const unknown = "00000000-0000-4000-8000-000000000000";
    const privateOne = await callRoute(
      r,
      `http://127.0.0.1:3000${fillPath(r.template, ids)}`,
      paramsOf(r.template, ids),
    );
    const missing = await callRoute(r, `http://127.0.0.1:3000${fillPath(r.template, { id: unknown })}`, {
      id: unknown,
    });
    expect({ status: privateOne.status, body: privateOne.text.replace(ids.id, unknown) }).toEqual({
      status: missing.status,
      body: missing.text,
    });
  });
});
