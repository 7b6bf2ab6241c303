import { describe, expect, it } from "vitest";
import { checkRequest, KNOWN_METHODS, MAX_TARGET_LENGTH } from "./request-guard.mjs";

const refusalOf = (method: string, target: string) => {
  const r = checkRequest(method, target);
  return r && { status: r.status, allow: r.headers.allow, error: JSON.parse(r.body).error };
};

describe("request guard (server/start.mjs)", () => {
  it("answers TRACE and unknown methods 405 in the error shape with an Allow header", () => {
    for (const method of ["TRACE", "CONNECT", "PROPFIND", "get", "FOO BAR"]) {
      const r = refusalOf(method, "/api/v1/ping");
      expect(r?.status).toBe(405);
      expect(r?.error.code).toBe("method_not_allowed");
      expect(r?.allow).toBe(KNOWN_METHODS.join(", "));
    }
    expect(refusalOf("FOO BAR", "/")?.error.message).toContain("(unprintable)");
  });

  it("answers a path with a bad percent-escape, a NUL or a control character 400", () => {
    for (const target of [
      "/api/v1/chatflows/%ff",
      "/api/%E0%A4%A",
      "/api/v1/%",
      "/api/v1/a%00b",
      "/api/v1/a%0d%0ab",
      "/a\u0000",
    ]) {
      const r = refusalOf("GET", target);
      expect(r?.status, target).toBe(400);
      expect(r?.error.code).toBe("bad_request");
    }
  });

  it("refuses a bad escape or NUL in the query but lets a newline through", () => {
    expect(refusalOf("GET", "/api/v1/domains?q=%ff")?.status).toBe(400);
    expect(refusalOf("GET", "/api/v1/domains?q=a%00")?.status).toBe(400);
    expect(checkRequest("GET", "/api/v1/domains?q=a%0Ab+c")).toBeNull();
  });

  it("refuses an overlong target and one that is not a path", () => {
    expect(refusalOf("GET", `/api/${"a".repeat(MAX_TARGET_LENGTH)}`)?.status).toBe(400);
    expect(refusalOf("GET", "*")?.status).toBe(400);
  });

  it("lets well-formed requests through", () => {
    for (const method of KNOWN_METHODS) expect(checkRequest(method, "/api/v1/chatflows/%7Bx%7D?a=%C3%A9")).toBeNull();
    expect(checkRequest("GET", "/")).toBeNull();
  });
});
