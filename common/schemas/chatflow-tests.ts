import { pageParams } from "./pagination";
import { z } from "zod";
import { historyMessageSchema, uploadItemSchema } from "./prediction";
import { sourceDocumentSchema, usedToolSchema } from "./prediction-stream";

/**
 * Test cases of a chatflow (issue 16, "Tests of a chatflow"): a question with optional history,
 * overrides and uploads, and expectations on the answer. Each expectation is checked by a pure
 * function (lib/services/chatflow-tests/expectations.ts); patterns and JSON schemas are also
 * compiled there when a case is saved, so a bad one is a 400 then, not a failed run later.
 */

/** Most characters of an answerMatches pattern (long patterns are where catastrophic ones hide). */
export const PATTERN_MAX_CHARS = 500;
/** Most expectations of one case, and most cases of one chatflow. */
export const EXPECTATIONS_MAX = 30;
export const CASES_MAX = 200;
/** Most characters of a JSON schema in answerJsonSchema, serialised. */
export const JSON_SCHEMA_MAX_CHARS = 20_000;

const text = (max: number) => z.string().min(1, { error: "must not be empty" }).max(max);

export const expectationSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("status"), value: z.number().int().min(100).max(599) }),
  z.object({ type: z.literal("answerContains"), value: text(2000), caseSensitive: z.boolean().optional() }),
  z.object({ type: z.literal("answerNotContains"), value: text(2000), caseSensitive: z.boolean().optional() }),
  z.object({
    type: z.literal("answerMatches"),
    pattern: text(PATTERN_MAX_CHARS),
    flags: z
      .string()
      .regex(/^[imsu]{0,4}$/, { error: "may hold the flags i, m, s and u only" })
      .optional(),
  }),
  z.object({ type: z.literal("answerJsonSchema"), schema: z.record(z.string(), z.unknown()) }),
  z.object({
    type: z.literal("toolCalled"),
    tool: text(200),
    /** Fields the tool's input must hold (deep: objects match by their listed fields, other values by equality). */
    input: z.record(z.string(), z.unknown()).optional(),
  }),
  z.object({ type: z.literal("toolNotCalled"), tool: text(200) }),
  z.object({ type: z.literal("sourceContains"), value: text(2000) }),
  z.object({
    type: z.literal("latencyBelow"),
    ms: z.number().int().min(1).max(600_000),
    /** Off by default: latency is reported, and only fails the case when this is true. */
    gating: z.boolean().optional(),
  }),
]);
export type Expectation = z.infer<typeof expectationSchema>;
export type ExpectationType = Expectation["type"];

export const testCaseBodySchema = z
  .object({
    name: text(200),
    question: text(50_000),
    history: z.array(historyMessageSchema).max(50).optional(),
    overrideConfig: z.record(z.string(), z.unknown()).optional(),
    uploads: z.array(uploadItemSchema).max(5).optional(),
    expectations: z.array(expectationSchema).min(1, { error: "needs at least one expectation" }).max(EXPECTATIONS_MAX),
  })
  .meta({ id: "ChatflowTestCaseInput" });
export type TestCaseBody = z.infer<typeof testCaseBodySchema>;

export const testCaseSchema = testCaseBodySchema
  .extend({
    id: z.string(),
    chatflowId: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "ChatflowTestCase" });
export type TestCase = z.infer<typeof testCaseSchema>;

export const testCaseParams = z.object({
  id: z.uuid({ error: "must be a UUID" }),
  caseId: z.uuid({ error: "must be a UUID" }),
});
export const testRunParams = z.object({
  id: z.uuid({ error: "must be a UUID" }),
  runId: z.uuid({ error: "must be a UUID" }),
});

export const startTestRunBodySchema = z
  .object({
    /** The version to test; omitted: the draft (the latest version). */
    version: z.number().int().min(1).max(2_147_483_647).optional(),
  })
  .meta({ id: "ChatflowTestRunStart" });
export type StartTestRunBody = z.infer<typeof startTestRunBodySchema>;

export const listTestRunsQuery = z.object({
  version: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  ...pageParams("chatflow-test-runs"),
});

/** One expectation's outcome: what was expected, what the answer had, and whether it decides the case. */
export const expectationResultSchema = z.object({
  expectation: expectationSchema,
  pass: z.boolean(),
  /** False for reported-only checks (latency unless gating): they never fail the case. */
  gating: z.boolean(),
  expected: z.string(),
  actual: z.string(),
});
export type ExpectationResult = z.infer<typeof expectationResultSchema>;

export const testCaseResultSchema = z.object({
  caseId: z.string(),
  name: z.string(),
  question: z.string(),
  pass: z.boolean(),
  /** The HTTP status the prediction would have answered (200, or the error's status). */
  status: z.number().int(),
  answer: z.string(),
  /** The error's code and message when the prediction failed. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  usedTools: z.array(usedToolSchema),
  sourceDocuments: z.array(sourceDocumentSchema),
  latencyMs: z.number().int(),
  expectations: z.array(expectationResultSchema),
});
export type TestCaseResult = z.infer<typeof testCaseResultSchema>;

export const testRunStatusSchema = z.enum(["queued", "running", "finished", "failed"]);

export const testRunSchema = z
  .object({
    id: z.string(),
    chatflowId: z.string(),
    version: z.number().int(),
    status: testRunStatusSchema,
    total: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    /** Why a run as a whole failed (e.g. interrupted by a restart); cases' own failures are in results. */
    error: z.string().nullable(),
    results: z.array(testCaseResultSchema),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: "ChatflowTestRun" });
export type TestRun = z.infer<typeof testRunSchema>;

/** A run in lists: the counts without the results. */
export const testRunSummarySchema = testRunSchema.omit({ results: true }).meta({ id: "ChatflowTestRunSummary" });
export type TestRunSummary = z.infer<typeof testRunSummarySchema>;

export const startTestRunResponseSchema = z.object({ runId: z.string(), version: z.number().int() });

/** "Save this exchange as a test": a stored answer, or an exchange the studio chat just had. */
export const exchangeToCaseBodySchema = z
  .object({
    name: text(200).optional(),
    question: text(50_000),
    answer: z.string().max(200_000),
    usedTools: z.array(usedToolSchema).max(50).optional(),
  })
  .meta({ id: "ChatflowTestFromExchange" });
export type ExchangeToCaseBody = z.infer<typeof exchangeToCaseBodySchema>;
