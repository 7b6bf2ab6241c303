import http from "node:http";
import { expect, test } from "@playwright/test";
import { APP } from "./servers";

// Auth bypass by path, case and encoding through the real server (server/start.mjs + Next's
// router), with raw request targets: Playwright's request client would normalise `..` and `//`.
// tests/security/auth-bypass.test.ts holds every route handler to the same, path by path.

const PROTECTED = ["/api/v1/apikey", "/api/v1/chatflows", "/api/v1/credentials", "/api/v1/users"];

/** Spellings that once reached a protected route past a path-based allow-list. */
function tricks(p: string): string[] {
  const rest = p.replace(/^\/api\/v1\//, "");
  return [
    p,
    p.toUpperCase(),
    p.replace("/api/", "/Api/"),
    `/api/v1/ping/../${rest}`,
    `/api/v1/ping/%2e%2e/${rest}`,
    `/api/v1/ping/%2E%2E%2F${rest}`,
    `/api/v1/ping/..%2f${rest}`,
    `/api/v1/ping/.%2e/${rest}`,
    `//api/v1/${rest}`,
    `/api/v1//${rest}`,
    `/api/v1/./${rest}`,
    `${p}/`,
    `${p}/.`,
    `${p}?/api/v1/ping`,
    `${p}#/api/v1/ping`,
    `${p};/api/v1/ping`,
    `${p}%3f/api/v1/ping`,
    `/api/v1%2f${rest}`,
    `/api%2fv1%2f${rest}`,
    `/%61pi/v1/${rest}`,
    `/api/v1/${rest.replace(/^./, (c) => `%${c.charCodeAt(0).toString(16)}`)}`,
    `/api/v1/${rest}%00`,
    `/api/v1/${rest}%20`,
    `/_next/../api/v1/${rest}`,
    `http://127.0.0.1/api/v1/${rest}`,
  ];
}

/** One raw request: the target goes on the wire exactly as written. */
function raw(
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; location?: string; body: string }> {
  const { hostname, port } = new URL(APP);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: hostname, port, method: "GET", path: target, headers, insecureHTTPParser: false },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** A refusal, or a redirect whose target is refused in turn; never the protected data. */
async function expectRefused(target: string, headers: Record<string, string> = {}, hops = 0): Promise<void> {
  const res = await raw(target, headers);
  if (res.status >= 300 && res.status < 400 && res.location && hops < 3) {
    const next = new URL(res.location, APP);
    // An absolute-form target (GET http://host/…) is redirected to that host: no data served here.
    if (next.origin !== APP) return;
    return expectRefused(next.pathname + next.search, headers, hops + 1);
  }
  expect([400, 401, 404, 405], `${target} → ${res.status} ${res.body.slice(0, 200)}`).toContain(res.status);
  // Paths Next does not see as the API (e.g. /%61pi/…) get its HTML 404 page: refused all the same.
  // The one error shape; validation errors also carry `details`.
  if (res.body.startsWith("{"))
    expect(JSON.parse(res.body)).toEqual({
      error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
    });
  else expect(res.body.startsWith("<!DOCTYPE"), `${target} → ${res.body.slice(0, 100)}`).toBe(true);
}

test("no spelling of a protected path reaches it without credentials", async () => {
  for (const p of PROTECTED) {
    for (const target of tricks(p)) await expectRefused(target);
  }
});

test("headers that proxies and frameworks trusted do not stand in for credentials", async () => {
  const spoofs: Record<string, string>[] = [
    { "x-middleware-subrequest": "middleware:middleware:middleware:middleware:middleware" },
    { "x-middleware-subrequest": "src/middleware:src/middleware:src/middleware:src/middleware:src/middleware" },
    { "x-original-url": "/api/v1/ping", "x-rewrite-url": "/api/v1/ping" },
    { "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1", "x-switchyard-client-ip": "127.0.0.1" },
    { "x-forwarded-host": "localhost", "x-forwarded-proto": "https", host: "localhost" },
  ];
  for (const p of PROTECTED) {
    for (const headers of spoofs) await expectRefused(p, headers);
  }
});

// An absolute-form request target (GET http://evil.example/api/v1/apikey, as a client talking to a
// proxy sends) was answered 308 with Location on the host it named, which a shared cache in front
// could store for everyone; the request guard now refuses any target not starting with '/'.
test("an absolute-form request target is never redirected to the host it names", async () => {
  const res = await raw("http://evil.example/api/v1/apikey");
  expect(res.location ?? "").not.toContain("evil.example");
  expect([400, 401, 404]).toContain(res.status);
});
