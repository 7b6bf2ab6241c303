import { getDb, getSql } from "../client";

/** The UsageRecord and ModelPrice tables: an answer's usage written, usage summed, prices kept. */

export interface UsageRow {
  chatflowId: string;
  chatMessageId?: string;
  executionId?: string;
  models: string[];
  promptTokens: number;
  completionTokens: number;
  estimated: boolean;
  costUsd: number | null;
  latencyMs: number;
  error?: string;
}

/** The models go as a JSON array (one text parameter, whatever the driver's array support). */
export const INSERT_USAGE_SQL = `INSERT INTO "UsageRecord"
  ("id","chatflowId","chatMessageId","executionId","models","promptTokens","completionTokens","estimated","costUsd","latencyMs","error","createdAt")
  VALUES (gen_random_uuid(),$1::uuid,$2::uuid,$3::uuid,ARRAY(SELECT jsonb_array_elements_text($4::jsonb)),$5::int,$6::int,$7::boolean,$8::float8,$9::int,$10::text,$11::timestamp(3))`;
const INSERT_USAGE_SQL_NAME = "insert_usage";

/**
 * Stores one answer's (or failed run's) usage. Plain SQL, prepared: it runs after every prediction,
 * and Prisma's create cost more than the insert on the embedded database (bench/measured.md).
 */
export async function insertUsageRecord(row: UsageRow): Promise<void> {
  await (await getSql())(
    INSERT_USAGE_SQL,
    [
      row.chatflowId,
      row.chatMessageId ?? null,
      row.executionId ?? null,
      JSON.stringify(row.models),
      row.promptTokens,
      row.completionTokens,
      row.estimated,
      row.costUsd,
      row.latencyMs,
      row.error ?? null,
      new Date().toISOString(),
    ],
    INSERT_USAGE_SQL_NAME,
  );
}

/** The usage stored with answers, by message id (Conversations shows it beside each answer). */
export async function findUsageOfMessages(messageIds: string[]) {
  if (!messageIds.length) return [];
  return (await getDb()).usageRecord.findMany({
    where: { chatMessageId: { in: messageIds } },
    select: {
      chatMessageId: true,
      models: true,
      promptTokens: true,
      completionTokens: true,
      estimated: true,
      costUsd: true,
      latencyMs: true,
    },
  });
}

/** The usage records of an agentflow run, oldest first (one per answer: a resumed run has several). */
export async function findUsageOfExecution(executionId: string) {
  return (await getDb()).usageRecord.findMany({
    where: { executionId },
    select: { models: true, promptTokens: true, completionTokens: true, estimated: true, costUsd: true },
    orderBy: { createdAt: "asc" },
  });
}

export interface UsageFilter {
  from: Date;
  to: Date;
  /** Only these chatflows (undefined: every chatflow). */
  chatflowIds?: string[];
  /** Only chatflows of this owner (undefined: any owner). */
  ownerId?: string;
}

export interface UsageGroupRow {
  key: string | null;
  /** 1 on the totals row (GROUPING SETS' empty set). */
  total: number;
  requests: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number | null;
  unpriced: number;
  p50LatencyMs: number | null;
  p95LatencyMs: number | null;
}

const GROUP_KEYS = {
  // createdAt is stored in UTC (timestamp without time zone): a day is a UTC day.
  day: `to_char(u."createdAt", 'YYYY-MM-DD')`,
  // An answer that called several models is one request, under their names joined.
  model: `array_to_string(u."models", ', ')`,
} as const;

/**
 * Usage per group and in total, in one statement over the (chatflowId, createdAt) index: requests,
 * failed ones, tokens, cost (null where nothing was priced; `unpriced` counts answers whose model
 * had no price), and latency percentiles (percentile_cont, interpolated).
 */
export async function aggregateUsage(filter: UsageFilter, groupBy: keyof typeof GROUP_KEYS): Promise<UsageGroupRow[]> {
  const params: unknown[] = [filter.from, filter.to];
  const where = [`u."createdAt" >= $1`, `u."createdAt" < $2`];
  if (filter.chatflowIds) {
    params.push(filter.chatflowIds);
    where.push(`u."chatflowId" = ANY($${params.length}::uuid[])`);
  }
  if (filter.ownerId) {
    params.push(filter.ownerId);
    where.push(`c."ownerId" = $${params.length}::uuid`);
  }
  const text = `
    SELECT k AS "key", GROUPING(k)::int AS "total",
      count(*)::int AS "requests",
      count("error")::int AS "errors",
      coalesce(sum("promptTokens"), 0)::float8 AS "promptTokens",
      coalesce(sum("completionTokens"), 0)::float8 AS "completionTokens",
      sum("costUsd")::float8 AS "costUsd",
      (count(*) FILTER (WHERE "costUsd" IS NULL AND "error" IS NULL))::int AS "unpriced",
      percentile_cont(0.5) WITHIN GROUP (ORDER BY "latencyMs")::float8 AS "p50LatencyMs",
      percentile_cont(0.95) WITHIN GROUP (ORDER BY "latencyMs")::float8 AS "p95LatencyMs"
    FROM (
      SELECT ${GROUP_KEYS[groupBy]} AS k, u."error", u."promptTokens", u."completionTokens", u."costUsd", u."latencyMs"
      FROM "UsageRecord" u JOIN "Chatflow" c ON c."id" = u."chatflowId"
      WHERE ${where.join(" AND ")}
    ) s
    GROUP BY GROUPING SETS ((k), ())
    ORDER BY GROUPING(k), k`;
  return (await getSql())<UsageGroupRow>(text, params);
}

/** The prices admins set (the defaults live in lib/usage/default-prices.ts). */
export async function listModelPrices() {
  return (await getDb()).modelPrice.findMany({
    select: { model: true, inputPerMTok: true, outputPerMTok: true },
    orderBy: { model: "asc" },
  });
}

/** Replaces the admins' prices with these, all or none. */
export async function replaceModelPrices(prices: { model: string; inputPerMTok: number; outputPerMTok: number }[]) {
  const db = await getDb();
  await db.$transaction([db.modelPrice.deleteMany({}), db.modelPrice.createMany({ data: prices })]);
}
