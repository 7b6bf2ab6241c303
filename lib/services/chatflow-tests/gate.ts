import { AppError } from "@/common/errors";
import { findLatestTestRun, listTestCases } from "../../db/queries/chatflow-tests";
import type { TestCaseResult } from "@/common/schemas/chatflow-tests";

type NamedCase = { caseId: string; name: string };

const names = (cases: NamedCase[]) => cases.map((c) => `"${c.name}"`).join(", ");

/**
 * "Require passing tests to publish": throws 409 unless the newest test run of this version
 * finished with every current case passing. A case added or edited after that run has not run
 * against the version yet and counts as not run. A chatflow without cases has nothing to fail.
 * `error.details` = {version, runId, failing: [{caseId, name}], notRun: [{caseId, name}]}.
 */
export async function checkVersionTests(chatflowId: string, version: number): Promise<void> {
  const cases = (await listTestCases({ chatflowId })).items;
  if (!cases.length) return;
  const run = await findLatestTestRun({ chatflowId, version });
  if (run && (run.status === "queued" || run.status === "running")) {
    throw new AppError(
      "conflict",
      `Version ${version} cannot be published yet: its tests are still running (run ${run.id}).`,
      { details: { version, runId: run.id, failing: [], notRun: [] } },
    );
  }
  const results = new Map(((run?.results ?? []) as TestCaseResult[]).map((r) => [r.caseId, r]));
  const failing: NamedCase[] = [];
  const notRun: NamedCase[] = [];
  for (const c of cases) {
    const result = results.get(c.id);
    const named = { caseId: c.id, name: c.name };
    if (run?.status !== "finished" || !result || c.updatedAt > run.createdAt) notRun.push(named);
    else if (!result.pass) failing.push(named);
  }
  if (!failing.length && !notRun.length) return;
  const why = [
    failing.length ? `failing: ${names(failing)}` : "",
    notRun.length ? `not run against this version: ${names(notRun)}` : "",
  ].filter(Boolean);
  throw new AppError(
    "conflict",
    `Version ${version} cannot be published: this chatflow requires passing tests (${why.join("; ")}). Run the tests against version ${version} and fix what fails, or turn off "Require passing tests".`,
    { details: { version, runId: run?.id ?? null, failing, notRun } },
  );
}
