import type { PageRequest } from "@/common/schemas/pagination";
import { isPaged, mapPage } from "../db/keyset";
import { AppError, isAppError } from "@/common/errors";
import type { DomainAnalysisRun, Prisma } from "../db/generated/client";
import {
  countRunOutcome,
  failAnalysisRun,
  markRunRunning,
  failInterruptedAnalyses,
  findAnalysableDomainIds,
  findAnalysisRun,
  findDomainById,
  insertAnalysisRun,
  listAnalysisRuns,
  saveDomainAnalysis,
  updateDomain,
} from "../db/queries/domains";
import type { Caller } from "@/common/access/callers";
import { getQueue, type JobDefinition } from "../jobs";
import { ANALYSIS_MAX_PER_RUN, type AnalysisRunRecord, type AnalyzeDomainsBody } from "@/common/schemas/domain";
import { getChatflowOrThrow } from "./chatflows";
import { predictHere } from "./predictions";
import { storableJson, storableText } from "../db/storable-text";
import { processState } from "../state";
import { log } from "../log";

/** One domain to analyse; plain JSON so a queue in another process could carry it. */
export type AnalyseDomainJob = { domainId: string; runId: string; chatflowId: string; caller: Caller };

const RETRYABLE = new Set(["upstream_unavailable", "upstream_timeout", "rate_limited"]);

/** Upstream trouble (model down, 429, 5xx, timeouts, unknown network errors) is worth a retry; 4xx-like errors are not. */
export function isRetryableAnalysisError(err: unknown): boolean {
  if (!isAppError(err)) return true;
  if (RETRYABLE.has(err.code)) return true;
  if (err.code !== "upstream_error") return false;
  // The model client puts the provider's status in the details; an SDK's error carried it as the cause.
  const status =
    (err.details as { status?: unknown } | undefined)?.status ??
    (err.cause as { status?: unknown } | undefined)?.status;
  return typeof status !== "number" || status === 429 || status >= 500;
}

/**
 * Reads structured JSON from a flow's answer: the whole text, a fenced ```json block, or the
 * outermost {...} inside the text. Null when there is no JSON object.
 */
export function extractJson(text: string): Record<string, unknown> | null {
  const candidates = [text.trim(), /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1]?.trim()];
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  if (first >= 0 && last > first) candidates.push(text.slice(first, last + 1));
  for (const c of candidates) {
    if (!c) continue;
    try {
      const value = JSON.parse(c);
      if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // Try the next candidate.
    }
  }
  return null;
}

async function analyseOne(job: AnalyseDomainJob): Promise<void> {
  const domain = await findDomainById({ id: job.domainId });
  if (!domain) throw new AppError("not_found", "The domain was deleted before it was analysed.");
  // Its run was closed as failed because the add seemed to fail (startDomainAnalysis), yet the job got
  // in (an add that outlived its time budget): nothing waits for it and the run is already counted.
  if (domain.analysisRunId === job.runId && domain.analysisStatus === "failed") return;
  await updateDomain({ id: domain.id, data: { analysisStatus: "running" } });
  await markRunRunning({ runId: job.runId });
  const result = await predictHere(
    {
      chatflowId: job.chatflowId,
      body: { question: domain.name },
      caller: job.caller,
      origin: null,
      clientIp: "background-job",
    },
    "INTERNAL",
  );
  const json = extractJson(result.text);
  await saveDomainAnalysis({
    id: domain.id,
    chatflowId: job.chatflowId,
    // Model output: NUL or a lone surrogate must not fail the write (see storable-text.ts).
    text: storableText(result.text),
    analysis: json === null ? null : (storableJson(json) as Prisma.InputJsonValue),
  });
  await countRunOutcome({ runId: job.runId, ok: true });
}

async function recordFailure(job: AnalyseDomainJob, error: unknown): Promise<void> {
  const message = isAppError(error) ? error.message : "Internal error while analysing.";
  if (!isAppError(error)) log.error({ err: error }, "domain analysis failed");
  // The previous analysis (if any) stays; the error says why this run failed.
  await updateDomain({
    id: job.domainId,
    data: { analysisStatus: "failed", analysisError: message.slice(0, 1000) },
  }).catch(() => {});
  await countRunOutcome({ runId: job.runId, ok: false });
}

/** The job definition; tests may lower `backoffMs` (read at each retry). */
export const analyseDomainJob: JobDefinition<AnalyseDomainJob> = {
  name: "domain-analysis",
  handler: analyseOne,
  onFailed: recordFailure,
  isRetryable: isRetryableAnalysisError,
  concurrency: 4,
  attempts: 3,
  backoffMs: 2000,
};

/** The queue domain analyses run on. */
export const domainAnalysisQueue = () => getQueue(analyseDomainJob);

/**
 * The in-process queue forgets its jobs when the process stops: the first time this process
 * touches analyses, domains left queued or running by an earlier process are marked failed
 * (retryable). Once per process ("analysisRecovery" in lib/state/catalogue.ts: dev reloads do not
 * repeat it while jobs run). A durable queue (BullMQ, queue mode) keeps its jobs through a restart: no recovery.
 */
export function recoverInterruptedAnalyses(): Promise<number> {
  const recovery = processState("analysisRecovery", () => ({}) as { done?: Promise<number> });
  recovery.done ??= failInterruptedAnalyses({ message: "Interrupted by a server restart: analyse again." }).catch(
    (err) => {
      recovery.done = undefined;
      throw err;
    },
  );
  return recovery.done;
}

export function toRunRecord(run: DomainAnalysisRun): AnalysisRunRecord {
  return {
    id: run.id,
    chatflowId: run.chatflowId,
    status: run.status,
    total: run.total,
    succeeded: run.succeeded,
    failed: run.failed,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

/**
 * Queues an analysis of the chosen valid domains (ids or a filter) with a chatflow: one
 * prediction per domain, in the background. Invalid and unknown ids are skipped and counted.
 */
export async function startDomainAnalysis(body: AnalyzeDomainsBody, caller: Caller) {
  // Analysing runs the chatflow: the caller needs `predict` on it (a key: that permission, in scope;
  // a builder: their own chatflow), not only `domains`.
  await getChatflowOrThrow(body.chatflowId, caller, "chatflow.predict");
  // A durable queue (BullMQ) keeps the jobs through restarts: nothing to recover.
  if (!domainAnalysisQueue().durable) await recoverInterruptedAnalyses();
  const ids = await findAnalysableDomainIds({ ids: body.ids, filter: body.filter, take: ANALYSIS_MAX_PER_RUN + 1 });
  if (ids.length > ANALYSIS_MAX_PER_RUN) {
    throw new AppError(
      "bad_request",
      `filter: matches more than ${ANALYSIS_MAX_PER_RUN} valid domains; narrow it or send ids.`,
    );
  }
  const skipped = body.ids ? new Set(body.ids).size - ids.length : 0;
  if (!ids.length) return { run: null, queued: 0, skipped };
  const run = await insertAnalysisRun({ chatflowId: body.chatflowId, domainIds: ids });
  try {
    await domainAnalysisQueue().add(
      ids.map((domainId) => ({ domainId, runId: run.id, chatflowId: body.chatflowId, caller })),
    );
  } catch (err) {
    // The run is already visible: without this it would stay "queued" forever. The client gets the
    // add's error (503 queue_unavailable when Redis is down).
    const reason =
      isAppError(err) && err.code === "queue_unavailable"
        ? "the job queue was unreachable"
        : "the jobs could not be queued";
    await failAnalysisRun({ runId: run.id, message: `Not analysed: ${reason}; analyse again.` }).catch((e) =>
      console.error("[switchyard] could not close an analysis run that failed to queue:", e),
    );
    throw err;
  }
  return { run: toRunRecord(run), queued: ids.length, skipped };
}

/** Progress of one run; 404 when unknown. */
export async function getAnalysisRun(id: string) {
  const run = await findAnalysisRun({ id });
  if (!run) throw new AppError("not_found", `Analysis run ${id} not found.`);
  return toRunRecord(run);
}

/** The most recent runs, newest first. */
export async function listRecentAnalysisRuns(page: PageRequest) {
  // The 20 latest when the caller names no page (the list this route always answered).
  return mapPage(await listAnalysisRuns({ page: isPaged(page) ? page : { limit: 20 } }), toRunRecord);
}
