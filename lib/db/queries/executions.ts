import { getDb, getSql } from "../client";
import type { ChatType, ExecutionStatus, Prisma } from "../generated/client";
import { storableJsonText, storableText } from "../storable-text";

/** Agentflow runs (Execution rows): one per run, saved after every node. */

export async function insertExecution({
  data,
}: {
  data: { chatflowId: string; version: number; sessionId: string; chatId: string } & Partial<{
    state: Prisma.InputJsonValue;
    position: Prisma.InputJsonValue;
    chatType: ChatType;
    leaseUntil: Date;
    runId: string;
  }>;
}) {
  return (await getDb()).execution.create({ data });
}

export async function findExecutionById({ id }: { id: string }) {
  return (await getDb()).execution.findUnique({ where: { id } });
}

/** The latest run of a chat of a chatflow (what a resume continues), or null. */
export async function findLatestExecutionOfChat({ chatflowId, chatId }: { chatflowId: string; chatId: string }) {
  return (await getDb()).execution.findFirst({
    where: { chatflowId, chatId },
    orderBy: { createdAt: "desc" },
  });
}

/** The latest run a queue job (or in-process run) started or resumed, or null. */
export async function findExecutionOfRun({ runId }: { runId: string }) {
  return (await getDb()).execution.findFirst({ where: { runId }, orderBy: { createdAt: "desc" } });
}

/**
 * The conversation summaries the chat's latest run kept (its position's `summaries`), read alone:
 * a position also holds every node's output.
 */
export async function findLatestSummariesOfChat({ chatflowId, chatId }: { chatflowId: string; chatId: string }) {
  const rows = await (await getSql())<{ summaries: unknown }>(
    `SELECT "position"->'summaries' AS "summaries" FROM "Execution"
     WHERE "chatflowId" = $1::uuid AND "chatId" = $2 ORDER BY "createdAt" DESC LIMIT 1`,
    [chatflowId, chatId],
  );
  return rows[0]?.summaries;
}

/**
 * One UPDATE of a running run's progress: status, state, position and executed data always; `action`,
 * `error` and `finishedAt` only when their flag ($6, $8, $10) says so (else left as they are);
 * `leaseUntil` and `expiresAt` always (null clears them). Plain SQL: it runs after every step.
 */
export const SAVE_EXECUTION_SQL = `UPDATE "Execution" SET
  "status" = $2::"ExecutionStatus", "state" = $3::jsonb, "position" = $4::jsonb, "executedData" = $5::jsonb,
  "action" = CASE WHEN $6::boolean THEN $7::jsonb ELSE "action" END,
  "error" = CASE WHEN $8::boolean THEN $9::text ELSE "error" END,
  "finishedAt" = CASE WHEN $10::boolean THEN $11::timestamp(3) ELSE "finishedAt" END,
  "leaseUntil" = $12::timestamp(3), "expiresAt" = $13::timestamp(3), "updatedAt" = $14::timestamp(3)
  WHERE "id" = $1::uuid AND "status" = 'running'::"ExecutionStatus"
  RETURNING "id"`;
const SAVE_EXECUTION_SQL_NAME = "save_execution";

/**
 * Saves a run's progress (state, position, executed data, status) while it is running; answers false
 * (nothing written) when it no longer is: ended by another process (failed at the takeover cap,
 * expired), so the process that ran it stops writing to it. One prepared UPDATE instead of Prisma's
 * updateMany: it runs after every step of every run, and Prisma's round trip on the embedded database
 * cost more than the write (bench/measured.md, "Agentflow steps").
 */
export async function saveExecution({
  id,
  data,
}: {
  id: string;
  data: {
    status: ExecutionStatus;
    state: unknown;
    position: unknown;
    executedData: unknown;
    /** null clears it; undefined leaves it. */
    action?: unknown;
    error?: string | null;
    finishedAt?: Date | null;
    leaseUntil?: Date | null;
    expiresAt?: Date | null;
  };
}) {
  // Step outputs come from models, tools and user code: NUL or a lone surrogate must not fail the write.
  const json = (v: unknown) => storableJsonText(v ?? null);
  const time = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  const rows = await (await getSql())(
    SAVE_EXECUTION_SQL,
    [
      id,
      data.status,
      json(data.state),
      json(data.position),
      json(data.executedData),
      data.action !== undefined,
      data.action === undefined || data.action === null ? null : json(data.action),
      data.error !== undefined,
      data.error === undefined || data.error === null ? null : storableText(data.error),
      data.finishedAt !== undefined,
      time(data.finishedAt),
      time(data.leaseUntil),
      time(data.expiresAt),
      new Date().toISOString(),
    ],
    SAVE_EXECUTION_SQL_NAME,
  );
  return rows.length === 1;
}

/**
 * Takes a paused run for one resume: paused → running only if it is still paused and not past its
 * expiry (a second resume at the same time finds it taken), holding its lease until `leaseUntil`.
 * Returns whether this caller got it.
 */
export async function claimPausedExecution({
  id,
  leaseUntil,
  runId,
}: {
  id: string;
  leaseUntil: Date;
  /** The job resuming it: a retry of that job finds the run it was continuing. */
  runId?: string;
}): Promise<boolean> {
  const { count } = await (await getDb()).execution.updateMany({
    where: { id, status: "paused", OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
    data: { status: "running", leaseUntil, expiresAt: null, ...(runId ? { runId } : {}) },
  });
  return count === 1;
}

/** Extends the lease of a run this process runs (while it is still running). */
export async function renewExecutionLease({ id, leaseUntil }: { id: string; leaseUntil: Date }) {
  await (await getDb()).execution.updateMany({ where: { id, status: "running" }, data: { leaseUntil } });
}

const leaseRanOut = (now: Date): Prisma.ExecutionWhereInput => ({
  status: "running",
  OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
});

/** Ids of running runs whose lease ran out before `now` (their process died), oldest first. */
export async function findAbandonedExecutionIds({ now, take }: { now: Date; take: number }): Promise<string[]> {
  const rows = await (await getDb()).execution.findMany({
    where: leaseRanOut(now),
    orderBy: { createdAt: "asc" },
    take,
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/**
 * Takes over an abandoned run (its lease still run out) until `leaseUntil`, counting the takeover:
 * "taken" when this caller got it; "capped" when it had been taken over `maxTakeovers` times already,
 * so it is marked error with `cappedError` instead; "held" when its lease is held (or it is no longer
 * running, or another caller took it first).
 */
export async function takeOverExecution({
  id,
  now,
  leaseUntil,
  maxTakeovers,
  cappedError,
}: {
  id: string;
  now: Date;
  leaseUntil: Date;
  maxTakeovers: number;
  cappedError: string;
}): Promise<"taken" | "capped" | "held"> {
  const db = await getDb();
  const capped = await db.execution.updateMany({
    where: { id, ...leaseRanOut(now), takeovers: { gte: maxTakeovers } },
    data: { status: "error", error: cappedError, leaseUntil: null, finishedAt: now },
  });
  if (capped.count === 1) return "capped";
  const taken = await db.execution.updateMany({
    where: { id, ...leaseRanOut(now), takeovers: { lt: maxTakeovers } },
    data: { leaseUntil, takeovers: { increment: 1 } },
  });
  return taken.count === 1 ? "taken" : "held";
}

/** Paused runs past their expiry become `expired` (no longer resumable); answers how many did. */
export async function expirePausedExecutions({ now, error }: { now: Date; error: string }): Promise<number> {
  const { count } = await (await getDb()).execution.updateMany({
    where: { status: "paused", expiresAt: { lte: now } },
    data: { status: "expired", error, finishedAt: now, leaseUntil: null },
  });
  return count;
}

/** Filters of the Executions API, already parsed; `ownerId` and `chatflowIds` also carry the caller's limits. */
export type ExecutionWhere = {
  id?: string;
  /** Runs of these flows only (every id must match: the filters and a key's scope are intersected by the caller). */
  chatflowIds?: string[];
  ownerId?: string;
  sessionId?: string;
  statuses?: ExecutionStatus[];
  createdAt?: { gte?: Date; lt?: Date; lte?: Date };
};

function toWhere(f: ExecutionWhere): Prisma.ExecutionWhereInput {
  return {
    ...(f.id ? { id: f.id } : {}),
    ...(f.chatflowIds ? { chatflowId: { in: f.chatflowIds } } : {}),
    ...(f.ownerId ? { chatflow: { ownerId: f.ownerId } } : {}),
    ...(f.sessionId ? { sessionId: f.sessionId } : {}),
    ...(f.statuses ? { status: { in: f.statuses } } : {}),
    ...(f.createdAt ? { createdAt: f.createdAt } : {}),
  };
}

/** The columns a list shows (no executed data, state or position), with the flow's name. */
const summarySelect = {
  id: true,
  chatflowId: true,
  version: true,
  sessionId: true,
  chatId: true,
  status: true,
  error: true,
  createdAt: true,
  updatedAt: true,
  finishedAt: true,
  chatflow: { select: { name: true } },
} satisfies Prisma.ExecutionSelect;

/**
 * A page of runs, newest first (id breaks ties): those after `after` (a cursor), then `skip` more;
 * `nodeCount` is the length of each run's executed data, counted in the database.
 */
export async function listExecutions({
  where,
  after,
  skip,
  take,
}: {
  where: ExecutionWhere;
  after?: { createdAt: Date; id: string };
  skip: number;
  take: number;
}) {
  const db = await getDb();
  const rows = await db.execution.findMany({
    where: {
      ...toWhere(where),
      ...(after
        ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip,
    take,
    select: summarySelect,
  });
  if (!rows.length) return [];
  const counts = await db.$queryRaw<{ id: string; n: number }[]>`
    SELECT "id"::text AS "id", jsonb_array_length(CASE WHEN jsonb_typeof("executedData") = 'array' THEN "executedData" ELSE '[]'::jsonb END)::int AS "n"
    FROM "Execution" WHERE "id" = ANY(${rows.map((r) => r.id)}::uuid[])`;
  const countOf = new Map(counts.map((c) => [c.id, c.n]));
  return rows.map((r) => ({ ...r, nodeCount: countOf.get(r.id) ?? 0 }));
}

export async function countExecutions({ where }: { where: ExecutionWhere }): Promise<number> {
  return (await getDb()).execution.count({ where: toWhere(where) });
}

/** A run with its flow's name and owner (whose runs they are), or null. */
export async function findExecutionWithFlow({ id }: { id: string }) {
  return (await getDb()).execution.findUnique({
    where: { id },
    include: { chatflow: { select: { name: true, ownerId: true } } },
  });
}

/** Runs by id with their flow's owner and their status (what a delete checks), in no order. */
export async function findExecutionOwners({ ids }: { ids: string[] }) {
  return (await getDb()).execution.findMany({
    where: { id: { in: ids } },
    select: { id: true, chatflowId: true, status: true, chatflow: { select: { ownerId: true } } },
  });
}

/** Deletes runs by id; answers how many went. */
export async function deleteExecutionsByIds({ ids }: { ids: string[] }): Promise<number> {
  const { count } = await (await getDb()).execution.deleteMany({ where: { id: { in: ids } } });
  return count;
}

/**
 * A run taken over while it resumed from Human Input (its answer was not stored): waits at that node
 * again, expiring at `expiresAt`. Only while this process holds it (still running).
 */
export async function returnToPaused({ id, expiresAt }: { id: string; expiresAt: Date }): Promise<boolean> {
  const { count } = await (await getDb()).execution.updateMany({
    where: { id, status: "running" },
    data: { status: "paused", leaseUntil: null, expiresAt },
  });
  return count === 1;
}

/** A running run that cannot go on: failed with `error` (only while still running). */
export async function failRunningExecution({ id, error }: { id: string; error: string }): Promise<boolean> {
  const { count } = await (await getDb()).execution.updateMany({
    where: { id, status: "running" },
    data: { status: "error", error, leaseUntil: null, finishedAt: new Date() },
  });
  return count === 1;
}
