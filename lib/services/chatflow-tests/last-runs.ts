import type { ChatflowTestRun } from "../../db/generated/client";
import { findLatestTestRunsByVersion } from "../../db/queries/chatflow-tests";
import type { TestRunSummary } from "@/common/schemas/chatflow-tests";

/** A run as listed: status and counts, without cases or results. */
export function toSummary(
  run: Omit<ChatflowTestRun, "cases" | "results" | "startedById" | "updatedAt">,
): TestRunSummary {
  return {
    id: run.id,
    chatflowId: run.chatflowId,
    version: run.version,
    status: run.status as TestRunSummary["status"],
    total: run.total,
    passed: run.passed,
    failed: run.failed,
    error: run.error,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

/**
 * The newest test run of each of these versions (absent: never tested), for the versions list and
 * the publish answer: publishing shows what the version's last run said. Apart from runs.ts, which
 * needs the prediction service, so the version service can ask without an import cycle.
 */
export async function lastTestRunsOf(chatflowId: string, versions: number[]): Promise<Map<number, TestRunSummary>> {
  const runs = await findLatestTestRunsByVersion({ chatflowId, versions });
  return new Map(runs.map((r) => [r.version, toSummary(r)]));
}
