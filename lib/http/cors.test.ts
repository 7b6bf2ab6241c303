import { describe, expect, it } from "vitest";
import { withHeaders } from "./cors";
import { json } from "./responses";

describe("withHeaders", () => {
  it("adds headers, joining a vary already there, and keeps status and body", async () => {
    const res = json({ ok: true }, 201, { vary: "Accept" });
    const out = withHeaders(res, { vary: "Origin", "access-control-allow-origin": "https://a.example" });
    expect(out.status).toBe(201);
    expect(out.headers.get("vary")).toBe("Accept, Origin");
    expect(out.headers.get("access-control-allow-origin")).toBe("https://a.example");
    expect(await out.json()).toEqual({ ok: true });
  });

  it("copies a response whose headers are immutable, with its status and body", async () => {
    const redirect = Response.redirect("https://a.example/next", 307);
    const out = withHeaders(redirect, { vary: "Origin" });
    expect(out.status).toBe(307);
    expect(out.headers.get("location")).toBe("https://a.example/next");
    expect(out.headers.get("vary")).toBe("Origin");
    expect(redirect.headers.get("vary")).toBeNull();
  });

  it("throws on a header value Headers refuses, whether or not the headers are mutable", () => {
    expect(() => withHeaders(json({}), { "x-bad": "a\nb" })).toThrow(TypeError);
    expect(() => withHeaders(Response.redirect("https://a.example/", 302), { "x-bad": "a\nb" })).toThrow(TypeError);
  });
});
