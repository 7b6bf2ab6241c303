import { createRequire } from "node:module";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as setup from "../../app/api/v1/setup/route";
import { buildAuthOptions } from "../../lib/auth/options";
import { refuseThrottledSignIn } from "../../lib/http/auth-guards";
import { SIGN_IN_FAILURES_PER_IP } from "../../lib/access/sign-in";
import { resetEnvForTests } from "../../lib/env";

// Issue 11: the password check and the sign-in limits existed twice, and one copy keyed its limit
// on the proxy's address whatever TRUST_PROXY said. Both doors (HTTP Basic and next-auth's form)
// now go through lib/access/sign-in.ts with the address lib/access/client-ip.ts computes: behind a
// trusted proxy each client has its own count on both doors; without TRUST_PROXY a forged
// X-Forwarded-For changes nothing.

/** Thirty password hashes and more per test. */
const SLOW = 180_000;

const ADMIN = { email: "proxy-admin@example.com", name: "Ada", password: "correct-horse-1" };

const { AuthHandler } = createRequire(import.meta.url)(path.resolve("node_modules/next-auth/core/index.js")) as {
  AuthHandler: (params: { req: Record<string, unknown>; options: unknown }) => Promise<{
    redirect?: string;
    body?: unknown;
    cookies?: { name: string; value: string }[];
  }>;
};

/** A studio sign-in through next-auth's real handler, with these request headers; true when it set a session cookie. */
async function studioSignIn(email: string, password: string, headers: Record<string, string>) {
  const jar: Record<string, string> = {};
  const req = (extra: Record<string, unknown>) => ({ query: {}, cookies: { ...jar }, headers, ...extra });
  const csrf = await AuthHandler({
    req: req({ method: "GET", action: "csrf", body: {} }),
    options: buildAuthOptions(),
  });
  for (const c of csrf.cookies ?? []) jar[c.name] = c.value;
  const { csrfToken } = csrf.body as { csrfToken: string };
  const res = await AuthHandler({
    req: req({ method: "POST", action: "callback", providerId: "credentials", body: { csrfToken, email, password } }),
    options: buildAuthOptions(),
  });
  return {
    signedIn: res.cookies?.some((c) => c.name === "next-auth.session-token" && c.value) ?? false,
    redirect: String(res.redirect),
  };
}

const basic = (email: string, password: string, headers: Record<string, string>) =>
  call(chatflows.GET, { headers: { ...auth.basic(email, password), ...headers } });

const throttled = (headers: Record<string, string>) =>
  refuseThrottledSignIn(
    new Request("http://127.0.0.1:3000/api/auth/callback/credentials", { method: "POST", headers }),
  );

/** Uses up the failed sign-ins of whatever address these headers resolve to: over Basic, or alternating both doors. */
async function spray(headers: (i: number) => Record<string, string>, doors: "basic" | "both") {
  for (let i = 0; i < SIGN_IN_FAILURES_PER_IP; i++) {
    const email = `victim${i}@example.com`;
    if (doors === "both" && i % 2) expect((await studioSignIn(email, "Spring2026!!", headers(i))).signedIn).toBe(false);
    else expect((await basic(email, "Spring2026!!", headers(i))).status).toBe(401);
  }
}

function trustProxy(on: boolean) {
  if (on) process.env.TRUST_PROXY = "true";
  else delete process.env.TRUST_PROXY;
  resetEnvForTests();
}

beforeAll(async () => {
  expect((await call(setup.POST, { method: "POST", body: ADMIN })).status).toBe(201);
});

afterEach(() => trustProxy(false));

describe("sign-in limits use the client address computed like everywhere else", () => {
  it(
    "behind a trusted proxy, counts each forwarded client on its own, on both doors",
    async () => {
      trustProxy(true);
      const proxy = { "x-switchyard-client-ip": "10.8.0.1" };
      const clientA = { ...proxy, "x-forwarded-for": "203.0.113.7, 10.8.0.1" };
      const clientB = { ...proxy, "x-forwarded-for": "203.0.113.8, 10.8.0.1" };
      await spray(() => clientA, "basic");

      // Client A is refused on both doors, even with the right password…
      expect((await basic(ADMIN.email, ADMIN.password, clientA)).status).toBe(429);
      const studioA = await studioSignIn(ADMIN.email, ADMIN.password, clientA);
      expect(studioA.signedIn).toBe(false);
      expect(studioA.redirect).toContain("Too%20many%20failed%20sign-ins");
      expect((await throttled(clientA))?.status).toBe(429);

      // …while client B, behind the same proxy, is not: the proxy's address was never the key.
      expect(await throttled(clientB)).toBeNull();
      expect((await basic(ADMIN.email, ADMIN.password, clientB)).status).toBe(200);
      expect((await studioSignIn(ADMIN.email, ADMIN.password, clientB)).signedIn).toBe(true);
    },
    SLOW,
  );

  it(
    "without TRUST_PROXY, ignores X-Forwarded-For on both doors: a forged one per attempt does not escape the limit",
    async () => {
      const socket = { "x-switchyard-client-ip": "10.8.0.2" };
      await spray((i) => ({ ...socket, "x-forwarded-for": `198.51.100.${i}` }), "both");
      const fresh = { ...socket, "x-forwarded-for": "198.51.100.200" };
      expect((await basic(ADMIN.email, ADMIN.password, fresh)).status).toBe(429);
      expect((await studioSignIn(ADMIN.email, ADMIN.password, fresh)).signedIn).toBe(false);
      expect((await throttled(fresh))?.status).toBe(429);
      // Another socket address is unaffected.
      expect((await studioSignIn(ADMIN.email, ADMIN.password, { "x-switchyard-client-ip": "10.8.0.3" })).signedIn).toBe(
        true,
      );
    },
    SLOW,
  );
});
