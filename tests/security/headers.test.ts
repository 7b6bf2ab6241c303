import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "../../proxy";
import { responseKind } from "../../lib/http/security-headers";

// Finding 8 of issue 10: no CSP, X-Frame-Options / frame-ancestors, nosniff or Referrer-Policy on
// any page. proxy.ts runs before every response of the app; these call it as Next does. The real
// server and browser are checked in e2e/security.spec.ts (headers on the wire, nonce on Next's
// scripts, zero CSP violations in the studio).

const run = (path: string) => proxy(new NextRequest(`http://127.0.0.1:3000${path}`));

/** The directives of a policy by name. */
function directives(policy: string | null): Record<string, string[]> {
  expect(policy).toBeTruthy();
  return Object.fromEntries(
    policy!
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
}

function expectBaseline(headers: Headers) {
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("x-frame-options")).toBe("DENY");
  expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  expect(headers.get("permissions-policy")).toBe("camera=(), geolocation=(), microphone=(self)");
}

describe("studio pages", () => {
  it("carry a nonce-based CSP that forbids framing, inline and foreign scripts", () => {
    for (const path of [
      "/",
      "/signin",
      "/chatflows",
      "/chatflows/7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b",
      "/no-such-page",
    ]) {
      const res = run(path);
      expectBaseline(res.headers);
      const csp = directives(res.headers.get("content-security-policy"));
      const nonce = csp["script-src"].find((v) => v.startsWith("'nonce-"));
      expect(nonce).toMatch(/^'nonce-[A-Za-z0-9+/]{22}==?'$/);
      expect(csp["script-src"]).not.toContain("'unsafe-inline'");
      expect(csp["script-src"]).not.toContain("'unsafe-eval'");
      expect(csp["script-src"]).not.toContain("*");
      expect(csp["frame-ancestors"]).toEqual(["'none'"]);
      expect(csp["object-src"]).toEqual(["'none'"]);
      expect(csp["base-uri"]).toEqual(["'none'"]);
      expect(csp["connect-src"]).toEqual(["'self'"]);
    }
  });

  it("hands the same policy to Next on the request, so Next puts this response's nonce on its scripts", () => {
    const res = run("/chatflows");
    const sent = res.headers.get("content-security-policy");
    // NextResponse.next({ request: { headers } }) forwards overridden request headers this way.
    expect(res.headers.get("x-middleware-override-headers")).toContain("content-security-policy");
    expect(res.headers.get("x-middleware-request-content-security-policy")).toBe(sent);
  });

  it("uses a fresh nonce for every response", () => {
    const nonces = new Set(
      Array.from(
        { length: 20 },
        () =>
          run("/chatflows")
            .headers.get("content-security-policy")!
            .match(/'nonce-([^']+)'/)![1],
      ),
    );
    expect(nonces.size).toBe(20);
  });
});

describe("API, static files and the widget script", () => {
  it("API answers (also unknown routes and next-auth) may not be framed or run anything", () => {
    for (const path of ["/api/v1/chatflows", "/api/v1/nope", "/api/auth/session", "/domains"]) {
      const res = run(path);
      expectBaseline(res.headers);
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("x-middleware-override-headers")).toBeNull();
    }
  });

  it("built files get nosniff and no framing; /embed.js stays loadable by host sites", () => {
    const chunk = run("/_next/static/chunks/main.js");
    expectBaseline(chunk.headers);
    expect(chunk.headers.get("cross-origin-resource-policy")).toBeNull();
    const embed = run("/embed.js");
    expectBaseline(embed.headers);
    expect(embed.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
  });

  it("classifies paths as page, API or static file", () => {
    expect(responseKind("/chatflows/abc")).toBe("page");
    expect(responseKind("/api/v1/ping")).toBe("api");
    expect(responseKind("/apiary")).toBe("page");
    expect(responseKind("/favicon.ico")).toBe("static");
  });
});
