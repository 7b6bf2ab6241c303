import { describe, expect, it } from "vitest";
import { safeReturnPath, signInPathFor } from "./return-path";

describe("safeReturnPath", () => {
  it("keeps paths on this site, with their query and hash", () => {
    expect(safeReturnPath("/chatflows")).toBe("/chatflows");
    expect(safeReturnPath("/chatflows/0b1c/conversations?page=2#x")).toBe("/chatflows/0b1c/conversations?page=2#x");
    expect(safeReturnPath("/domains/manage")).toBe("/domains/manage");
  });

  it("refuses anything that could leave the site or is not a path", () => {
    for (const bad of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "\\\\evil.example",
      "javascript:alert(1)",
      "/\tevil",
      "/%0d%0aSet-Cookie",
      "chatflows",
      "",
      null,
      undefined,
      `/${"a".repeat(2001)}`,
    ]) {
      const out = safeReturnPath(bad);
      // An encoded CR/LF stays encoded inside a path: harmless, but a raw one is refused.
      if (bad === "/%0d%0aSet-Cookie") expect(out).toBe("/%0d%0aSet-Cookie");
      else expect(out, String(bad)).toBeNull();
    }
  });

  it("does not return to the sign-in or setup pages", () => {
    expect(safeReturnPath("/signin?callbackUrl=/x")).toBeNull();
    expect(safeReturnPath("/setup")).toBeNull();
    expect(safeReturnPath("/signing-off")).toBe("/signing-off");
  });
});

describe("signInPathFor", () => {
  it("carries the page asked for, encoded, and leaves the default out", () => {
    expect(signInPathFor("/domains/manage?page=2")).toBe("/signin?callbackUrl=%2Fdomains%2Fmanage%3Fpage%3D2");
    expect(signInPathFor("/chatflows")).toBe("/signin");
    expect(signInPathFor("https://evil.example")).toBe("/signin");
    expect(signInPathFor(null)).toBe("/signin");
  });
});
