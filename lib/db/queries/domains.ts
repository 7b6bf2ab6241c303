import { keysetArgs, pageFrom, type KeysetOrder } from "../keyset";
import type { PageRequest } from "@/common/schemas/pagination";
import { getDb } from "../client";
import { Prisma } from "../generated/client";
import type { DomainAnalysisStatus } from "../generated/enums";

export type DomainWhere = {
  hasAnalysis?: boolean;
  isValid?: boolean;
  searchTerm?: string;
  analysisStatus?: DomainAnalysisStatus;
};

/** Prisma passes `contains` to LIKE as is: escape its wildcards so they match literally. */
function likeEscape(term: string) {
  return term.replace(/[\\%_]/g, "\\$&");
}

/** The Prisma filter for the list filters; they combine with AND. */
export function domainWhere(f: DomainWhere): Prisma.DomainWhereInput {
  const and: Prisma.DomainWhereInput[] = [];
  if (f.hasAnalysis !== undefined) and.push({ analyzedAt: f.hasAnalysis ? { not: null } : null });
  if (f.isValid !== undefined) and.push({ isValid: f.isValid });
  if (f.analysisStatus) and.push({ analysisStatus: f.analysisStatus });
  if (f.searchTerm) {
    const term = likeEscape(f.searchTerm);
    and.push({
      OR: [
        { name: { contains: term, mode: "insensitive" } },
        { analysisText: { contains: term, mode: "insensitive" } },
      ],
    });
  }
  return and.length ? { AND: and } : {};
}

type DomainOrder = { field: "name" | "createdAt" | "analyzedAt"; direction: "asc" | "desc" };

/**
 * A search counts its matches exactly up to this many (or to the end of the page asked for, if
 * further); beyond, its total is reported as a lower bound. An exact count of a common word visits
 * every heap page holding a match (bench/measured.md, "Domain search counts") to print a
 * figure nobody pages through; the other filters are counted exactly from the count table.
 */
export const SEARCH_COUNT_CAP = 1000;

/** A count of matches: exact, or (a search beyond its cap) at least `count`. */
export type DomainTotal = { count: number; exact: boolean };

/** One page of domains and the total of all matches (see SEARCH_COUNT_CAP). */
export async function findDomains({
  where,
  orderBy,
  skip,
  take,
  after,
}: {
  where: DomainWhere;
  orderBy: DomainOrder;
  skip: number;
  take: number;
  /** A keyset page (name or createdAt order): the rows after this position (a cursor). */
  after?: { key: string | number; id: string };
}) {
  const db = await getDb();
  if (orderBy.field === "analyzedAt") return findByAnalyzedAt({ where, direction: orderBy.direction, skip, take });
  const order = [
    { [orderBy.field]: orderBy.direction },
    { id: orderBy.direction },
  ] as Prisma.DomainOrderByWithRelationInput[];
  const op = orderBy.direction === "asc" ? "gt" : "lt";
  const key = orderBy.field === "createdAt" && after ? new Date(Number(after.key)) : after?.key;
  const keyset: Prisma.DomainWhereInput = after
    ? { OR: [{ [orderBy.field]: { [op]: key } }, { [orderBy.field]: key, id: { [op]: after.id } }] }
    : {};
  const [total, rows] = await Promise.all([
    countDomains(where, skip + take),
    // One row past the page: whether another follows (a cursor's next page); the count stays the page's.
    db.domain.findMany({ where: { AND: [domainWhere(where), keyset] }, orderBy: order, skip, take: take + 1 }),
  ]);
  return { total, rows };
}

/**
 * Sorted by analysis time, never-analysed domains last (newest added first) in both directions.
 * Read as two ranges so each can walk the plain analyzedAt index: "NULLS LAST" on a descending
 * scan of it would sort a million rows.
 */
async function findByAnalyzedAt({
  where,
  direction,
  skip,
  take,
}: {
  where: DomainWhere;
  direction: "asc" | "desc";
  skip: number;
  take: number;
}) {
  const db = await getDb();
  // A capped count still splits the ranges right: it is exact below skip + take, and above it the
  // whole page comes from the analysed range.
  const analysedTotal =
    where.hasAnalysis === false
      ? { count: 0, exact: true }
      : await countDomains({ ...where, hasAnalysis: true }, skip + take);
  const total = where.hasAnalysis === true ? analysedTotal : await countDomains(where, skip + take);
  const analysed = analysedTotal.count;
  const rows =
    skip < analysed
      ? await db.domain.findMany({
          where: domainWhere({ ...where, hasAnalysis: true }),
          orderBy: [{ analyzedAt: direction }, { id: direction }],
          skip,
          take,
        })
      : [];
  if (rows.length < take && where.hasAnalysis !== true) {
    rows.push(
      ...(await db.domain.findMany({
        where: domainWhere({ ...where, hasAnalysis: false }),
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        skip: Math.max(0, skip - analysed),
        take: take - rows.length,
      })),
    );
  }
  return { total, rows };
}

/**
 * How many domains match. Without a search or status filter the answer comes from the trigger-kept
 * DomainCount buckets (exact, constant time); otherwise it is counted, a search exactly up to
 * SEARCH_COUNT_CAP or to `through` (the last row of the page asked for), whichever is more, and
 * beyond that as a lower bound.
 */
export async function countDomains(where: DomainWhere, through = 0): Promise<DomainTotal> {
  const db = await getDb();
  if (where.searchTerm) {
    const cap = Math.max(SEARCH_COUNT_CAP, through + 1);
    const count = await countSearch({ ...where, searchTerm: where.searchTerm }, cap);
    return { count, exact: count < cap };
  }
  if (where.analysisStatus) return { count: await db.domain.count({ where: domainWhere(where) }), exact: true };
  const buckets = await db.domainCount.findMany({
    where: {
      ...(where.isValid === undefined ? {} : { isValid: where.isValid }),
      ...(where.hasAnalysis === undefined ? {} : { hasAnalysis: where.hasAnalysis }),
    },
  });
  return { count: buckets.reduce((sum, b) => sum + Number(b.count), 0), exact: true };
}

/**
 * Counts a search (the same matches as `domainWhere`). The search is read first, on its own: with
 * another filter beside it (hasAnalysis=true) PostgreSQL preferred walking that filter's index and
 * testing ILIKE on every row it found (a third of the table); the trigram indexes of migration
 * 20261122012202_domain_counts find the matches directly. OFFSET 0 keeps the planner from
 * merging the two levels back together.
 */
async function countSearch(where: DomainWhere & { searchTerm: string }, atMost: number) {
  const term = `%${likeEscape(where.searchTerm)}%`;
  const filters = [
    where.hasAnalysis === undefined
      ? Prisma.empty
      : where.hasAnalysis
        ? Prisma.sql`AND "analyzedAt" IS NOT NULL`
        : Prisma.sql`AND "analyzedAt" IS NULL`,
    where.isValid === undefined ? Prisma.empty : Prisma.sql`AND "isValid" = ${where.isValid}`,
    where.analysisStatus
      ? Prisma.sql`AND "analysisStatus" = ${where.analysisStatus}::"DomainAnalysisStatus"`
      : Prisma.empty,
  ];
  const [{ count }] = await (await getDb()).$queryRaw<{ count: bigint }[]>`
    SELECT count(*) AS "count" FROM (
      SELECT 1 FROM (
        SELECT "analyzedAt", "isValid", "analysisStatus" FROM "Domain"
        WHERE "name" ILIKE ${term} OR "analysisText" ILIKE ${term} OFFSET 0
      ) AS "d" WHERE TRUE ${Prisma.join(filters, " ")} LIMIT ${atMost}
    ) AS "first"`;
  return Number(count);
}

/** Inserts domains, skipping names that exist (a racing insert is not an error); returns how many were new. */
export async function insertDomains({
  rows,
}: {
  rows: { name: string; isValid: boolean; validationError: string | null }[];
}) {
  if (!rows.length) return 0;
  const { count } = await (await getDb()).domain.createMany({ data: rows, skipDuplicates: true });
  return count;
}

/** Ids of valid domains: the given ones, or those a filter matches (at most `take`, to detect overflow). */
export async function findAnalysableDomainIds({
  ids,
  filter,
  take,
}: {
  ids?: string[];
  filter?: DomainWhere;
  take: number;
}) {
  const where: Prisma.DomainWhereInput = ids ? { id: { in: ids } } : domainWhere(filter ?? {});
  const rows = await (await getDb()).domain.findMany({
    where: { AND: [where, { isValid: true }] },
    select: { id: true },
    orderBy: { createdAt: "asc" },
    take,
  });
  return rows.map((r) => r.id);
}

/** Creates an analysis run and marks its domains queued, in one transaction. */
export async function insertAnalysisRun({ chatflowId, domainIds }: { chatflowId: string; domainIds: string[] }) {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const run = await tx.domainAnalysisRun.create({ data: { chatflowId, total: domainIds.length, status: "queued" } });
    await tx.domain.updateMany({
      where: { id: { in: domainIds } },
      data: { analysisStatus: "queued", analysisRunId: run.id, analysisError: null },
    });
    return run;
  });
}

export async function findDomainById({ id }: { id: string }) {
  return (await getDb()).domain.findUnique({ where: { id } });
}

export async function updateDomain({ id, data }: { id: string; data: Prisma.DomainUpdateInput }) {
  return (await getDb()).domain.update({ where: { id }, data });
}

/** Stores a finished analysis: the model's text and its JSON (null: the answer held none). */
export async function saveDomainAnalysis({
  id,
  chatflowId,
  text,
  analysis,
}: {
  id: string;
  chatflowId: string;
  text: string;
  analysis: Prisma.InputJsonValue | null;
}) {
  return updateDomain({
    id,
    data: {
      analysisText: text,
      analysis: analysis === null ? Prisma.DbNull : analysis,
      analysisChatflow: { connect: { id: chatflowId } },
      analyzedAt: new Date(),
      analysisStatus: "succeeded",
      analysisError: null,
    },
  });
}

/** Counts one finished domain on its run and closes the run when every domain is counted. */
export async function countRunOutcome({ runId, ok }: { runId: string; ok: boolean }) {
  const db = await getDb();
  const run = await db.domainAnalysisRun.update({
    where: { id: runId },
    data: { status: "running", ...(ok ? { succeeded: { increment: 1 } } : { failed: { increment: 1 } }) },
  });
  if (run.succeeded + run.failed < run.total) return run;
  return db.domainAnalysisRun.update({ where: { id: runId }, data: { status: "finished", finishedAt: new Date() } });
}

/** A run whose first domain started is "running" (from "queued"; a finished run stays finished). */
export async function markRunRunning({ runId }: { runId: string }) {
  return (await getDb()).domainAnalysisRun.updateMany({
    where: { id: runId, status: "queued" },
    data: { status: "running" },
  });
}

/**
 * Closes a run whose jobs never reached the queue: its domains still queued for it are marked
 * failed with `message` and the run is finished with them counted as failed.
 */
export async function failAnalysisRun({ runId, message }: { runId: string; message: string }) {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const { count } = await tx.domain.updateMany({
      where: { analysisRunId: runId, analysisStatus: { in: ["queued", "running"] } },
      data: { analysisStatus: "failed", analysisError: message },
    });
    return tx.domainAnalysisRun.update({
      where: { id: runId },
      data: { status: "finished", failed: { increment: count }, finishedAt: new Date() },
    });
  });
}

export async function findAnalysisRun({ id }: { id: string }) {
  return (await getDb()).domainAnalysisRun.findUnique({ where: { id } });
}

export async function listAnalysisRuns({ page }: { page: PageRequest }) {
  const keyset = keysetArgs(ANALYSIS_RUN_ORDER, page);
  const rows = await (await getDb()).domainAnalysisRun.findMany({
    where: keyset.where,
    orderBy: keyset.orderBy,
    take: keyset.take,
  });
  return pageFrom(rows, ANALYSIS_RUN_ORDER, page);
}

const ANALYSIS_RUN_ORDER: KeysetOrder = { list: "domain-runs", field: "createdAt", direction: "desc", kind: "date" };

/**
 * Marks analyses that were queued or running when the process stopped as failed, and closes
 * their runs, so the studio shows them as retryable instead of "queued" forever.
 */
export async function failInterruptedAnalyses({ message }: { message: string }) {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const { count } = await tx.domain.updateMany({
      where: { analysisStatus: { in: ["queued", "running"] } },
      data: { analysisStatus: "failed", analysisError: message },
    });
    await tx.domainAnalysisRun.updateMany({
      where: { status: { not: "finished" } },
      data: { status: "finished", finishedAt: new Date() },
    });
    return count;
  });
}
