import { describe, expect, it } from "vitest";
import type { Expectation } from "@/common/schemas/chatflow-tests";
import { expectationSchema, testCaseBodySchema } from "@/common/schemas/chatflow-tests";
import {
  assertExpectationsUsable,
  casePasses,
  evaluateExpectations,
  inputMatches,
  type CaseOutcome,
} from "./expectations";

const outcome = (o: Partial<CaseOutcome> = {}): CaseOutcome => ({
  status: 200,
  answer: "The ThinkPad X1 costs 1299 EUR in Germany.",
  usedTools: [
    {
      tool: "product_search",
      toolInput: { input: '{"country":"DE","category":"laptop","maxPrice":1500}' },
      toolOutput: "[]",
    },
  ],
  sourceDocuments: [{ pageContent: "Returns are accepted within 30 days.", metadata: {} }],
  latencyMs: 120,
  ...o,
});

const one = (e: Expectation, o = outcome()) => evaluateExpectations([e], o)[0]!;

describe("expectations", () => {
  it("status compares the answered status", () => {
    expect(one({ type: "status", value: 200 }).pass).toBe(true);
    const r = one({ type: "status", value: 200 }, outcome({ status: 422 }));
    expect(r).toMatchObject({ pass: false, expected: "status 200", actual: "status 422" });
  });

  it("answerContains / answerNotContains ignore case unless told", () => {
    expect(one({ type: "answerContains", value: "thinkpad" }).pass).toBe(true);
    expect(one({ type: "answerContains", value: "thinkpad", caseSensitive: true }).pass).toBe(false);
    expect(one({ type: "answerNotContains", value: "sorry" }).pass).toBe(true);
    expect(one({ type: "answerNotContains", value: "GERMANY" }).pass).toBe(false);
  });

  it("answerMatches uses the pattern and flags", () => {
    expect(one({ type: "answerMatches", pattern: "\\d{4} EUR" }).pass).toBe(true);
    expect(one({ type: "answerMatches", pattern: "^the thinkpad" }).pass).toBe(false);
    expect(one({ type: "answerMatches", pattern: "^the thinkpad", flags: "i" }).pass).toBe(true);
  });

  it("a catastrophic pattern fails its expectation within the time bound instead of hanging", () => {
    const r = one({ type: "answerMatches", pattern: "^(a+)+$" }, outcome({ answer: `${"a".repeat(40)}!` }));
    expect(r.pass).toBe(false);
    expect(r.actual).toMatch(/took longer than/);
  }, 20_000);

  it("refuses an invalid pattern or schema when saved, naming the expectation", () => {
    expect(() => assertExpectationsUsable([{ type: "answerMatches", pattern: "(" }])).toThrow(
      /^Expectation 1: the pattern is not a valid regular expression/,
    );
    expect(() =>
      assertExpectationsUsable([
        { type: "status", value: 200 },
        { type: "answerJsonSchema", schema: { type: "nope" } },
      ]),
    ).toThrow(/^Expectation 2: the schema is not a valid JSON Schema/);
    expect(() => assertExpectationsUsable([{ type: "answerMatches", pattern: "a+", flags: "i" }])).not.toThrow();
  });

  it("the case schema caps pattern length, flags and counts", () => {
    expect(expectationSchema.safeParse({ type: "answerMatches", pattern: "a".repeat(501) }).success).toBe(false);
    expect(expectationSchema.safeParse({ type: "answerMatches", pattern: "a", flags: "g" }).success).toBe(false);
    const base = { name: "n", question: "q" };
    expect(testCaseBodySchema.safeParse({ ...base, expectations: [] }).success).toBe(false);
    const many = Array.from({ length: 31 }, () => ({ type: "status", value: 200 }));
    expect(testCaseBodySchema.safeParse({ ...base, expectations: many }).success).toBe(false);
  });

  it("answerJsonSchema parses the answer and validates it", () => {
    const schema = { type: "object", required: ["price"], properties: { price: { type: "number" } } };
    expect(one({ type: "answerJsonSchema", schema }, outcome({ answer: '{"price": 3}' })).pass).toBe(true);
    const wrong = one({ type: "answerJsonSchema", schema }, outcome({ answer: '{"price": "3"}' }));
    expect(wrong.pass).toBe(false);
    expect(wrong.actual).toMatch(/\/price must be number/);
    expect(one({ type: "answerJsonSchema", schema }).actual).toMatch(/^not JSON/);
  });

  it("toolCalled matches input fields, also inside a chain tool's JSON text", () => {
    expect(one({ type: "toolCalled", tool: "product_search" }).pass).toBe(true);
    expect(one({ type: "toolCalled", tool: "product_search", input: { country: "de", maxPrice: 1500 } }).pass).toBe(
      true,
    );
    const r = one({ type: "toolCalled", tool: "product_search", input: { country: "FR" } });
    expect(r.pass).toBe(false);
    expect(r.actual).toContain("product_search(");
    expect(one({ type: "toolCalled", tool: "other" }).pass).toBe(false);
  });

  it("toolNotCalled and sourceContains", () => {
    expect(one({ type: "toolNotCalled", tool: "product_search" }).pass).toBe(false);
    expect(one({ type: "toolNotCalled", tool: "product_search" }, outcome({ usedTools: [] })).pass).toBe(true);
    expect(one({ type: "sourceContains", value: "30 days" }).pass).toBe(true);
    expect(one({ type: "sourceContains", value: "60 days" }).pass).toBe(false);
  });

  it("latencyBelow is reported but does not fail the case unless gating", () => {
    const slow = outcome({ latencyMs: 5000 });
    const reported = evaluateExpectations(
      [
        { type: "status", value: 200 },
        { type: "latencyBelow", ms: 1000 },
      ],
      slow,
    );
    expect(reported[1]).toMatchObject({ pass: false, gating: false, actual: "5000 ms" });
    expect(casePasses(reported)).toBe(true);
    const gating = evaluateExpectations([{ type: "latencyBelow", ms: 1000, gating: true }], slow);
    expect(casePasses(gating)).toBe(false);
  });

  it("inputMatches: listed fields only, numbers as text agree", () => {
    expect(inputMatches({ a: 1 }, { a: "1", b: 2 })).toBe(true);
    expect(inputMatches({ a: { b: "X" } }, { a: { b: "x", c: 1 } })).toBe(true);
    expect(inputMatches({ a: [1, 2] }, { a: [1] })).toBe(false);
    expect(inputMatches({ a: 1 }, "text")).toBe(false);
  });
});
