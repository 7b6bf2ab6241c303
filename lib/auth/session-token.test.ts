import { describe, expect, it } from "vitest";
import { readSessionCookie } from "./session-token";

// One reader of the session cookie for the API, next-auth's route and studio pages (issue 11: it
// was written twice, and the two copies picked different cookies when both names were sent).
describe("readSessionCookie", () => {
  it("finds either name among other cookies, keeping '=' inside the value", () => {
    expect(readSessionCookie("a=1; next-auth.session-token=x.y=; b=2")).toEqual({
      name: "next-auth.session-token",
      value: "x.y=",
    });
    expect(readSessionCookie("__Secure-next-auth.session-token=s")).toEqual({
      name: "__Secure-next-auth.session-token",
      value: "s",
    });
  });

  it("prefers the __Secure- cookie whatever the order (a plain one can be planted over http)", () => {
    expect(readSessionCookie("next-auth.session-token=plain; __Secure-next-auth.session-token=secure")?.value).toBe(
      "secure",
    );
    expect(readSessionCookie("__Secure-next-auth.session-token=secure; next-auth.session-token=plain")?.value).toBe(
      "secure",
    );
  });

  it("takes the first of a repeated name, and answers null without one", () => {
    expect(readSessionCookie("next-auth.session-token=first; next-auth.session-token=second")?.value).toBe("first");
    expect(readSessionCookie("next-auth.session-token.0=chunk; other=1")).toBeNull();
    expect(readSessionCookie(null)).toBeNull();
    expect(readSessionCookie("")).toBeNull();
  });
});
