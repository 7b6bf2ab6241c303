import { describe, expect, it } from "vitest";
import { z } from "zod";
import { assertJsonDepth, assertNoNul, declaredQueryKeys, readQuery } from "./input-checks";

const message = (fn: () => void) => {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return null;
};

describe("assertJsonDepth", () => {
  it("counts only brackets outside strings, escaped quotes included", () => {
    expect(message(() => assertJsonDepth(`{"a":"${"[".repeat(500)}\\"{{{"}`, "body", 2))).toBeNull();
    expect(message(() => assertJsonDepth(`[[1]]`, "body", 2))).toBeNull();
    expect(message(() => assertJsonDepth(`[[[1]]]`, "body", 2))).toBe("body: JSON is nested deeper than 2 levels.");
    expect(message(() => assertJsonDepth(`${"[".repeat(3000)}${"]".repeat(3000)}`))).toBe(
      "body: JSON is nested deeper than 64 levels.",
    );
  });
});

describe("assertNoNul", () => {
  it("names the field of a NUL in a nested string or key", () => {
    expect(message(() => assertNoNul({ a: [{ b: "ok" }, { c: "x\u0000" }] }, "body"))).toBe(
      "body.a.1.c: must not contain a NUL character.",
    );
    expect(message(() => assertNoNul({ a: { "k\u0000": 1 } }, "body"))).toBe(
      "body.a: a key must not contain a NUL character.",
    );
    expect(message(() => assertNoNul({ a: ["fine", 1, null, true] }, "body"))).toBeNull();
    expect(message(() => assertNoNul({ a: ["x\ud800y"] }, "body"))).toMatch(
      /^body\.a\.0: must not contain a lone UTF-16 surrogate/,
    );
    expect(message(() => assertNoNul({ "k\udfff": 1 }, "body"))).toBe(
      "body: a key must not contain a lone UTF-16 surrogate.",
    );
    expect(message(() => assertNoNul({ a: "paired \ud83d\ude00" }, "body"))).toBeNull();
  });
});

describe("declaredQueryKeys and readQuery", () => {
  it("reads the keys through refinements, transforms and optional wrappers", () => {
    const schema = z
      .object({ a: z.string().optional(), b: z.string().optional() })
      .superRefine(() => {})
      .transform((q) => q);
    expect(declaredQueryKeys(schema)).toEqual(["a", "b"]);
    expect(declaredQueryKeys(z.object({ c: z.string() }).optional())).toEqual(["c"]);
    expect(declaredQueryKeys(undefined)).toEqual([]);
  });

  it("refuses a schema whose keys it cannot read, so no route silently accepts any key", () => {
    expect(() => declaredQueryKeys(z.record(z.string(), z.string()))).toThrow(/no readable keys/);
  });

  it("keeps declared parameters and refuses unknown, repeated and NUL ones", () => {
    expect(readQuery(new URL("http://h/x?a=1&b=%C3%A9"), ["a", "b"])).toEqual({ a: "1", b: "é" });
    expect(message(() => readQuery(new URL("http://h/x?a=1&zz=2"), ["a"]))).toBe(
      "Unknown query parameter 'zz' (accepted: a).",
    );
    expect(message(() => readQuery(new URL("http://h/x?a=1&a=2"), ["a"]))).toBe("query.a: given more than once.");
    expect(message(() => readQuery(new URL("http://h/x?a=%00"), ["a"]))).toBe(
      "query.a: must not contain a NUL character.",
    );
  });
});
