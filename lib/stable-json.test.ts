import { describe, expect, it } from "vitest";
import { stableJson } from "./stable-json";

describe("stableJson", () => {
  it("gives equal text for equal data whatever the key order, at every depth", () => {
    const a = { b: 1, a: { y: [1, { q: 2, p: 1 }], x: "s" } };
    const b = { a: { x: "s", y: [1, { p: 1, q: 2 }] }, b: 1 };
    expect(stableJson(a)).toBe(stableJson(b));
    expect(stableJson(a)).toBe('{"a":{"x":"s","y":[1,{"p":1,"q":2}]},"b":1}');
  });

  it("keeps array order", () => {
    expect(stableJson([2, 1])).not.toBe(stableJson([1, 2]));
  });

  it("leaves out undefined and function fields like JSON.stringify, so { a, b: undefined } equals { a }", () => {
    expect(stableJson({ a: 1, b: undefined })).toBe(stableJson({ a: 1 }));
    expect(stableJson({ a: 1, f: () => 1 })).toBe('{"a":1}');
    expect(stableJson({ nested: { gone: undefined } })).toBe('{"nested":{}}');
  });

  it("writes undefined in an array as null and a top-level undefined as null", () => {
    expect(stableJson([1, undefined, 3])).toBe("[1,null,3]");
    expect(stableJson(undefined)).toBe("null");
    expect(stableJson(null)).toBe("null");
  });

  it("applies toJSON (a Date is its ISO string) and is valid JSON of the same data", () => {
    const when = new Date("2026-01-02T03:04:05.000Z");
    expect(stableJson({ when })).toBe('{"when":"2026-01-02T03:04:05.000Z"}');
    const data = { z: [1, "two", { deep: true }], a: null, n: 1.5, s: 'quote " and \\ slash' };
    expect(JSON.parse(stableJson(data))).toEqual(JSON.parse(JSON.stringify(data)));
  });
});
