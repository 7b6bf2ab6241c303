import type { PageRequest } from "@/common/schemas/pagination";
import { isPaged, mapPage } from "../../db/keyset";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { AppError, isAppError } from "@/common/errors";
import type { ChatflowTestRun, Prisma } from "../../db/generated/client";
import {
  failInterruptedTestRuns,
  failTestRun,
  findTestRun,
  findTestRunById,
  insertTestRun,
  listTestCases,
  listTestRuns,
  markTestRunRunning,
  saveTestRunProgress,
} from "../../db/queries/chatflow-tests";
import { actingUserId } from "@/common/access/permissions";
import type { Caller } from "@/common/access/callers";
import { getQueue, type JobDefinition } from "../../jobs";
import {
  type TestCase,
  type TestCaseResult,
  type TestRun,
  testCaseResultSchema,
  testCaseSchema,
} from "@/common/schemas/chatflow-tests";
import { parseStoredJson } from "../../db/stored-json";
import { storableJson, storableText } from "../../db/storable-text";
import { processState } from "../../state";
import { log } from "../../log";
import { getChatflowOrThrow } from "../chatflows";
import { runDetachedPrediction } from "../predictions";
import { loadChatflowVersion } from "../chatflow-versions";
import { toTestCaseDto } from "./cases";
import { toSummary } from "./last-runs";
import { casePasses, evaluateExpectations } from "./expectations";

/** One run of a chatflow's cases; plain JSON so a worker process can carry it (queue mode). */
export type TestRunJob = { runId: string };

/** Runs listed per chatflow (newest first). */
const RUNS_LISTED = 50;

const storedResultsSchema = z.array(testCaseResultSchema);
const storedCasesSchema = z.array(testCaseSchema);

/** The API's view of a run, with the results of the cases finished so far. */
export function toTestRunDto(run: ChatflowTestRun): TestRun {
  const results = parseStoredJson(storedResultsSchema, run.results, {
    table: "ChatflowTestRun",
    column: "results",
    id: run.id,
  });
  return { ...toSummary(run), results };
}

/**
 * Runs one case through the prediction path against one version, in a session of its own that is
 * never stored (runDetachedPrediction); never throws for the case's own failure.
 */
async function runCase(chatflowId: string, version: number, testCase: TestCase): Promise<TestCaseResult> {
  const started = performance.now();
  let status = 200;
  let answer = "";
  let error: TestCaseResult["error"];
  let usedTools: TestCaseResult["usedTools"] = [];
  let sourceDocuments: TestCaseResult["sourceDocuments"] = [];
  try {
    const result = await runDetachedPrediction({
      chatflowId,
      version,
      body: {
        question: testCase.question,
        history: testCase.history,
        overrideConfig: testCase.overrideConfig,
        uploads: testCase.uploads,
      },
    });
    answer = result.text;
    usedTools = result.usedTools ?? [];
    sourceDocuments = result.sourceDocuments ?? [];
  } catch (err) {
    // What the prediction API would have answered: the error's status (a 422 can be what a case expects).
    if (!isAppError(err)) log.error({ err, chatflowId }, "test case failed with an internal error");
    status = isAppError(err) ? err.status : 500;
    error = isAppError(err)
      ? { code: err.code, message: err.message }
      : { code: "internal", message: "Internal error." };
  }
  const latencyMs = Math.round(performance.now() - started);
  const outcome = { status, answer, usedTools, sourceDocuments, latencyMs };
  const expectations = evaluateExpectations(testCase.expectations, outcome);
  return {
    caseId: testCase.id,
    name: testCase.name,
    question: testCase.question,
    pass: casePasses(expectations),
    ...outcome,
    answer: storableText(answer),
    ...(error ? { error } : {}),
    expectations,
  };
}

async function executeTestRun(job: TestRunJob): Promise<void> {
  const run = await findTestRunById({ id: job.runId });
  if (!run || (run.status !== "queued" && run.status !== "running")) return;
  await markTestRunRunning({ id: run.id });
  // 404 when the chatflow or the version is gone: the run fails as a whole (onFailed).
  await loadChatflowVersion(run.chatflowId, run.version);
  const cases = parseStoredJson(storedCasesSchema, run.cases, {
    table: "ChatflowTestRun",
    column: "cases",
    id: run.id,
  });
  const results: TestCaseResult[] = [];
  let passed = 0;
  for (const [i, testCase] of cases.entries()) {
    const result = await runCase(run.chatflowId, run.version, testCase);
    results.push(result);
    if (result.pass) passed++;
    await saveTestRunProgress({
      id: run.id,
      results: storableJson(results) as Prisma.InputJsonValue,
      passed,
      failed: results.length - passed,
      finished: i === cases.length - 1,
    });
  }
  if (!cases.length) await saveTestRunProgress({ id: run.id, results: [], passed: 0, failed: 0, finished: true });
}

async function recordRunFailure(job: TestRunJob, error: unknown): Promise<void> {
  if (!isAppError(error)) log.error({ err: error, runId: job.runId }, "test run failed");
  const message = isAppError(error) ? error.message : "Internal error while running the tests.";
  await failTestRun({ id: job.runId, message: message.slice(0, 1000) });
}

/** The job definition: one job per run, its cases one after another (results are progress). */
export const chatflowTestRunJob: JobDefinition<TestRunJob> = {
  name: "chatflow-test-run",
  handler: executeTestRun,
  onFailed: recordRunFailure,
  // A case's own failure is a result, not an error: what throws is the run itself (chatflow or
  // version gone, database down). Running it again would repeat every case, so it is not retried.
  isRetryable: () => false,
  concurrency: 2,
  attempts: 1,
  backoffMs: 1000,
};

export const chatflowTestRunQueue = () => getQueue(chatflowTestRunJob);

/**
 * A queue that is not durable (in-process) forgets its jobs with the process: the first time this
 * process starts a run, runs an earlier process left queued or running are closed as failed
 * ("testRunRecovery" in lib/state/catalogue.ts). A durable one (BullMQ) keeps them in Redis: no recovery.
 */
function recoverInterruptedTestRuns(): Promise<number> {
  const recovery = processState(
    "testRunRecovery",
    () => ({ before: new Date() }) as { before: Date; done?: Promise<number> },
  );
  recovery.done ??= failInterruptedTestRuns({
    message: "Interrupted by a server restart: run the tests again.",
    before: recovery.before,
  }).catch((err) => {
    recovery.done = undefined;
    throw err;
  });
  return recovery.done;
}

/**
 * Queues a run of all of a chatflow's cases against a version (default: the draft, i.e. the
 * latest) and answers its id at once; the run's results fill in as cases finish.
 */
export async function startTestRun(chatflowId: string, body: { version?: number }, caller: Caller) {
  await getChatflowOrThrow(chatflowId, caller, "chatflow.test");
  // The draft is the latest version; an unknown version is a 404 before anything is queued.
  const { version } = await loadChatflowVersion(chatflowId, body.version ?? "draft");
  if (!chatflowTestRunQueue().durable) await recoverInterruptedTestRuns();
  const cases = (await listTestCases({ chatflowId })).items.map(toTestCaseDto);
  const run = await insertTestRun({
    chatflowId,
    version,
    cases: cases as unknown as Prisma.InputJsonValue,
    total: cases.length,
    startedById: actingUserId(caller),
  });
  try {
    await chatflowTestRunQueue().add([{ runId: run.id }]);
  } catch (err) {
    const reason =
      isAppError(err) && err.code === "queue_unavailable" ? "the job queue was unreachable" : "it could not be queued";
    await failTestRun({ id: run.id, message: `Not run: ${reason}; run the tests again.` }).catch(() => {});
    throw err;
  }
  return { runId: run.id, version };
}

/** One run with its results; 404 when it is not a run of this chatflow. */
export async function getTestRun(chatflowId: string, runId: string, caller: Caller): Promise<TestRun> {
  await getChatflowOrThrow(chatflowId, caller, "chatflow.test");
  const run = await findTestRun({ chatflowId, id: runId });
  if (!run) throw new AppError("not_found", `Test run ${runId} not found.`);
  return toTestRunDto(run);
}

/** The newest runs of a chatflow (of one version when given), without results. */
export async function listChatflowTestRuns(
  chatflowId: string,
  query: { version?: number },
  caller: Caller,
  page: PageRequest = {},
) {
  await getChatflowOrThrow(chatflowId, caller, "chatflow.test");
  // The latest RUNS_LISTED when the caller names no page (what this list always answered).
  return mapPage(
    await listTestRuns({ chatflowId, version: query.version, page: isPaged(page) ? page : { limit: RUNS_LISTED } }),
    toSummary,
  );
}
