import vm from "node:vm";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { AppError } from "@/common/errors";
import type { Expectation, ExpectationResult } from "@/common/schemas/chatflow-tests";
import { JSON_SCHEMA_MAX_CHARS } from "@/common/schemas/chatflow-tests";
import type { SourceDocument, UsedTool } from "@/common/schemas/prediction-stream";
import { describeExpectation } from "@/common/tests/describe";

/**
 * Expectations of a test case, checked against what a run of the chatflow answered. Pure
 * functions: no database, no model. Builder-written patterns and JSON schemas are untrusted
 * input: patterns are length-capped by the schema and every match (and every JSON Schema
 * validation, whose `pattern` keywords are regexes too) runs under a time bound, so a
 * catastrophic pattern fails its expectation instead of holding the worker.
 */

/** What one run of a case produced. */
export interface CaseOutcome {
  status: number;
  answer: string;
  usedTools: UsedTool[];
  sourceDocuments: SourceDocument[];
  latencyMs: number;
}

/** Time one pattern match or schema validation may take. */
export const MATCH_TIME_LIMIT_MS = 200;
/** Most characters of an answer a pattern or schema is matched against. */
const MATCH_INPUT_MAX = 100_000;

const ajv = new Ajv2020({ allErrors: true, strict: false });

class TimeBoundExceeded extends Error {}

/** Runs `fn` synchronously, aborting it past MATCH_TIME_LIMIT_MS (V8 interrupts regex backtracking too). */
function withinTimeBound<T>(fn: () => T): T {
  try {
    return vm.runInNewContext("fn()", { fn }, { timeout: MATCH_TIME_LIMIT_MS }) as T;
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") throw new TimeBoundExceeded();
    throw err;
  }
}

/** Where a refused expectation is: a sentence for the message, the field path for details. */
type Place = { what: string; path: (string | number)[] };
const placeOf = (index: number | undefined, key: string): Place =>
  index === undefined
    ? { what: `The ${key}`, path: [key] }
    : { what: `Expectation ${index + 1}: the ${key}`, path: ["expectations", index, key] };

function refuse(place: Place, problem: string, cause: string): AppError {
  return new AppError("validation_failed", `${place.what} ${problem} (${cause}).`, {
    details: [{ field: ["body", ...place.path].join("."), path: place.path, code: "custom", message: cause }],
  });
}

/** Compiles an answerMatches pattern; 400 naming the expectation when it is not a valid regular expression. */
export function compilePattern(pattern: string, flags = "", index?: number): RegExp {
  try {
    return new RegExp(pattern, flags);
  } catch (err) {
    throw refuse(placeOf(index, "pattern"), "is not a valid regular expression", (err as Error).message);
  }
}

const compiledSchemas = new WeakMap<object, ValidateFunction>();

/** Compiles an answerJsonSchema schema; 400 naming the expectation when it is not a usable JSON Schema. */
export function compileJsonSchema(schema: Record<string, unknown>, index?: number): ValidateFunction {
  const cached = compiledSchemas.get(schema);
  if (cached) return cached;
  if (JSON.stringify(schema).length > JSON_SCHEMA_MAX_CHARS) {
    throw refuse(placeOf(index, "schema"), "is too long", `at most ${JSON_SCHEMA_MAX_CHARS} characters as JSON`);
  }
  try {
    // A builder's $id must not collide with another case's in the shared instance: compile without it.
    const { $id: _ignored, ...rest } = schema;
    const validate = ajv.compile(rest);
    compiledSchemas.set(schema, validate);
    return validate;
  } catch (err) {
    throw refuse(placeOf(index, "schema"), "is not a valid JSON Schema", (err as Error).message);
  }
}

/** Checks what can be checked when a case is saved (patterns, schemas); throws a 400 naming the expectation. */
export function assertExpectationsUsable(expectations: Expectation[]): void {
  expectations.forEach((e, i) => {
    if (e.type === "answerMatches") compilePattern(e.pattern, e.flags, i);
    if (e.type === "answerJsonSchema") compileJsonSchema(e.schema, i);
  });
}

const quote = (s: string) => JSON.stringify(s);
const short = (s: string, max = 300) => (s.length > max ? `${s.slice(0, max)}…` : s);

function contains(haystack: string, needle: string, caseSensitive?: boolean) {
  return caseSensitive ? haystack.includes(needle) : haystack.toLowerCase().includes(needle.toLowerCase());
}

/**
 * Whether `actual` holds every field of `expected`: objects by their listed keys (recursively),
 * arrays element by element, strings case-insensitively after trimming, numbers also when the
 * other side is the same number as text (tools receive model-written JSON: "1500" and 1500 agree).
 */
export function inputMatches(expected: unknown, actual: unknown): boolean {
  if (expected && typeof expected === "object" && !Array.isArray(expected)) {
    if (!actual || typeof actual !== "object" || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([k, v]) => inputMatches(v, (actual as Record<string, unknown>)[k]));
  }
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) && expected.length === actual.length && expected.every((v, i) => inputMatches(v, actual[i]))
    );
  }
  if (typeof expected === "string" && typeof actual === "string")
    return expected.trim().toLowerCase() === actual.trim().toLowerCase();
  if (
    (typeof expected === "number" || typeof expected === "string") &&
    (typeof actual === "number" || typeof actual === "string")
  )
    return String(expected).trim() === String(actual).trim();
  return Object.is(expected, actual);
}

/** A tool's input as an object: tools given JSON text (chain tools, OpenAPI chain) are parsed. */
function toolInputObject(input: unknown): unknown {
  if (typeof input !== "string") return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/**
 * The fields of a tool input to compare: the input itself, and for tools whose input wraps a JSON
 * text in one field (a chain tool's `{input: "<json>"}`) that text parsed too.
 */
function inputCandidates(input: unknown): unknown[] {
  const parsed = toolInputObject(input);
  const out = [parsed];
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    for (const v of Object.values(parsed)) {
      const inner = toolInputObject(v);
      if (inner !== v && inner && typeof inner === "object") out.push(inner);
    }
  }
  return out;
}

function describeTools(tools: UsedTool[]): string {
  if (!tools.length) return "no tool calls";
  return tools
    .map(
      (t) =>
        `${t.tool}(${short(typeof t.toolInput === "string" ? t.toolInput : JSON.stringify(t.toolInput ?? null), 200)})`,
    )
    .join(", ");
}

type Verdict = { pass: boolean; expected: string; actual: string; gating?: boolean };

function checkOne(e: Expectation, o: CaseOutcome): Verdict {
  switch (e.type) {
    case "status":
      return { pass: o.status === e.value, expected: describeExpectation(e), actual: `status ${o.status}` };
    case "answerContains":
      return {
        pass: contains(o.answer, e.value, e.caseSensitive),
        expected: describeExpectation(e),
        actual: short(o.answer) || "an empty answer",
      };
    case "answerNotContains":
      return {
        pass: !contains(o.answer, e.value, e.caseSensitive),
        expected: describeExpectation(e),
        actual: short(o.answer) || "an empty answer",
      };
    case "answerMatches":
      return checkPattern(e, o.answer);
    case "answerJsonSchema":
      return checkJsonSchema(e.schema, o.answer);
    case "toolCalled": {
      const calls = o.usedTools.filter((t) => t.tool === e.tool);
      const pass = e.input
        ? calls.some((c) => inputCandidates(c.toolInput).some((i) => inputMatches(e.input, i)))
        : calls.length > 0;
      return {
        pass,
        expected: describeExpectation(e),
        actual: describeTools(o.usedTools),
      };
    }
    case "toolNotCalled":
      return {
        pass: !o.usedTools.some((t) => t.tool === e.tool),
        expected: describeExpectation(e),
        actual: describeTools(o.usedTools),
      };
    case "sourceContains":
      return {
        pass: o.sourceDocuments.some((d) => contains(d.pageContent, e.value)),
        expected: describeExpectation(e),
        actual: o.sourceDocuments.length
          ? `${o.sourceDocuments.length} source documents: ${o.sourceDocuments.map((d) => quote(short(d.pageContent, 80))).join(", ")}`
          : "no source documents",
      };
    case "latencyBelow":
      return {
        pass: o.latencyMs < e.ms,
        expected: describeExpectation(e),
        actual: `${o.latencyMs} ms`,
        gating: e.gating === true,
      };
  }
}

function checkPattern(e: Extract<Expectation, { type: "answerMatches" }>, answer: string): Verdict {
  const expected = describeExpectation(e);
  const actual = short(answer) || "an empty answer";
  try {
    const re = compilePattern(e.pattern, e.flags);
    const input = answer.slice(0, MATCH_INPUT_MAX);
    return { pass: withinTimeBound(() => re.test(input)), expected, actual };
  } catch (err) {
    if (err instanceof TimeBoundExceeded)
      return { pass: false, expected, actual: `the pattern took longer than ${MATCH_TIME_LIMIT_MS} ms; simplify it` };
    return { pass: false, expected, actual: (err as Error).message };
  }
}

function checkJsonSchema(schema: Record<string, unknown>, answer: string): Verdict {
  const expected = describeExpectation({ type: "answerJsonSchema", schema });
  let data: unknown;
  try {
    data = JSON.parse(answer.trim());
  } catch {
    return { pass: false, expected, actual: `not JSON: ${short(answer) || "an empty answer"}` };
  }
  try {
    const validate = compileJsonSchema(schema);
    if (withinTimeBound(() => validate(data))) return { pass: true, expected, actual: "JSON matching the schema" };
    const errors = (validate.errors ?? []).map((er) => `${er.instancePath || "/"} ${er.message ?? "is wrong"}`);
    return { pass: false, expected, actual: `JSON, but ${errors.slice(0, 5).join("; ")}` };
  } catch (err) {
    if (err instanceof TimeBoundExceeded)
      return {
        pass: false,
        expected,
        actual: `validation took longer than ${MATCH_TIME_LIMIT_MS} ms; simplify the schema`,
      };
    return { pass: false, expected, actual: (err as Error).message };
  }
}

/** Checks every expectation of a case against one outcome. */
export function evaluateExpectations(expectations: Expectation[], outcome: CaseOutcome): ExpectationResult[] {
  return expectations.map((expectation) => {
    const v = checkOne(expectation, outcome);
    return { expectation, pass: v.pass, gating: v.gating ?? true, expected: v.expected, actual: v.actual };
  });
}

/** A case passes when every gating expectation does. */
export function casePasses(results: ExpectationResult[]): boolean {
  return results.every((r) => r.pass || !r.gating);
}
