import { createHash, randomUUID } from "node:crypto";
import { getDb, getSql } from "../client";
import { type ChatMessage, type ChatMessageFeedback, Prisma } from "../generated/client";
import type { ChatType } from "../generated/enums";
import { storableJsonText, storableText } from "../storable-text";

/**
 * The ChatMessage table: the prediction hot path (session history, storing an exchange) in plain
 * SQL, the Message API (filters, pages, sessions, deletes) through Prisma.
 */

/** Filters of the Message API, already parsed (dates as a range). */
export type MessageWhere = {
  chatflowId: string;
  sessionId?: string;
  chatId?: string;
  chatType?: ChatType;
  messageId?: string;
  memoryType?: string;
  createdAt?: { gte?: Date; lt?: Date; lte?: Date };
  /** "any": rated exchanges (answer and its question); "none": the others; a rating: exchanges rated so. */
  feedback?: "any" | "none" | "THUMBS_UP" | "THUMBS_DOWN";
};

function toWhere(f: MessageWhere, rated?: string[]): Prisma.ChatMessageWhereInput {
  return {
    chatflowId: f.chatflowId,
    ...(f.sessionId ? { sessionId: f.sessionId } : {}),
    ...(f.chatId ? { chatId: f.chatId } : {}),
    ...(f.chatType ? { chatType: f.chatType } : {}),
    ...(f.memoryType ? { memoryType: f.memoryType } : {}),
    ...(f.createdAt ? { createdAt: f.createdAt } : {}),
    AND: [
      ...(f.messageId ? [{ id: f.messageId }] : []),
      ...(rated && f.feedback === "none" ? [{ id: { notIn: rated } }] : []),
      ...(rated && f.feedback !== "none" ? [{ id: { in: rated } }] : []),
    ],
  };
}

/**
 * The messages of rated exchanges, as Flowise's feedback filters keep them: each rated answer (of
 * the rating asked, or any) and the question before it in its session. Undefined without a
 * feedback filter.
 */
async function ratedExchangeIds(f: MessageWhere): Promise<string[] | undefined> {
  if (!f.feedback) return undefined;
  const rating = f.feedback === "THUMBS_UP" || f.feedback === "THUMBS_DOWN" ? f.feedback : null;
  const db = await getDb();
  const rows = await db.$queryRaw<{ answer: string; question: string | null }[]>`
    SELECT a."id"::text AS "answer",
      (SELECT q."id"::text FROM "ChatMessage" q
        WHERE q."chatflowId" = a."chatflowId" AND q."sessionId" = a."sessionId" AND q."role" = 'userMessage'
          AND (q."createdAt" < a."createdAt" OR (q."createdAt" = a."createdAt" AND q."id" <> a."id"))
        ORDER BY q."createdAt" DESC, q."id" DESC LIMIT 1) AS "question"
    FROM "ChatMessage" a JOIN "ChatMessageFeedback" f ON f."messageId" = a."id"
    WHERE a."chatflowId" = ${f.chatflowId}::uuid AND a."role" = 'apiMessage'
      AND (${rating}::text IS NULL OR f."rating"::text = ${rating}::text)`;
  return rows.flatMap((r) => (r.question ? [r.answer, r.question] : [r.answer]));
}

/**
 * The filters as a parameterised WHERE clause over "ChatMessage" aliased `m` (the same rows as
 * toWhere selects), its values appended to `params`.
 */
function toSqlWhere(f: MessageWhere, rated: string[] | undefined, params: unknown[]): string {
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const terms = [`m."chatflowId" = ${p(f.chatflowId)}::uuid`];
  if (f.sessionId) terms.push(`m."sessionId" = ${p(f.sessionId)}`);
  if (f.chatId) terms.push(`m."chatId" = ${p(f.chatId)}`);
  if (f.chatType) terms.push(`m."chatType" = ${p(f.chatType)}::"ChatType"`);
  if (f.memoryType) terms.push(`m."memoryType" = ${p(f.memoryType)}`);
  // Timestamps as UTC text, as Prisma writes and compares timestamp(3) columns.
  const at = (d: Date) => `${p(d.toISOString())}::timestamp(3)`;
  if (f.createdAt?.gte) terms.push(`m."createdAt" >= ${at(f.createdAt.gte)}`);
  if (f.createdAt?.lt) terms.push(`m."createdAt" < ${at(f.createdAt.lt)}`);
  if (f.createdAt?.lte) terms.push(`m."createdAt" <= ${at(f.createdAt.lte)}`);
  if (f.messageId) terms.push(`m."id" = ${p(f.messageId)}::uuid`);
  if (rated && f.feedback === "none") terms.push(`NOT (m."id" = ANY(${p(rated)}::uuid[]))`);
  if (rated && f.feedback !== "none") terms.push(`m."id" = ANY(${p(rated)}::uuid[])`);
  return terms.join(" AND ");
}

/** createdAt as `Date.toISOString()` writes it, made by PostgreSQL (the columns hold UTC wall time). */
const isoText = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A message of a page as the page query selects it: times as ISO text (what the Message API
 * answers), and its feedback's columns (all null without one).
 */
export type MessageListRow = Pick<
  ChatMessage,
  | "id"
  | "chatflowId"
  | "sessionId"
  | "chatId"
  | "role"
  | "content"
  | "sourceDocuments"
  | "usedTools"
  | "fileUploads"
  | "chatType"
  | "memoryType"
  | "chatflowVersion"
> & {
  createdDate: string;
  fId: string | null;
  fRating: ChatMessageFeedback["rating"] | null;
  fContent: string | null;
  fCreatedDate: string | null;
};
const MESSAGE_COLUMNS = `m."id", m."chatflowId", m."sessionId", m."chatId", m."role"::text AS "role", m."content",
  m."sourceDocuments", m."usedTools", m."fileUploads", m."chatType"::text AS "chatType", m."memoryType",
  m."chatflowVersion", ${isoText('m."createdAt"')} AS "createdDate",
  f."id" AS "fId", f."rating"::text AS "fRating", f."content" AS "fContent", ${isoText('f."createdAt"')} AS "fCreatedDate"`;

/**
 * One page of matching messages and the total count, ordered by time (id breaks ties). Plain SQL: a
 * list of 1,000 messages (the Message API's default page) took about twice as long through Prisma's
 * client (bench/measured.md, "Message API pages").
 */
export async function findChatMessages({
  where,
  direction,
  skip,
  take,
  after,
}: {
  where: MessageWhere;
  direction: "asc" | "desc";
  skip: number;
  take: number;
  /** A keyset page: the rows after this one in the list's order (a cursor), for the page only (not the total). */
  after?: { createdAt: Date; id: string };
}) {
  const sql = await getSql();
  const filterParams: unknown[] = [];
  const counted = toSqlWhere(where, await ratedExchangeIds(where), filterParams);
  const dir = direction === "desc" ? "DESC" : "ASC";
  const order = `m."createdAt" ${dir}, m."id" ${dir}`;
  const pageParams = [...filterParams];
  let filter = counted;
  if (after) {
    pageParams.push(after.createdAt.toISOString(), after.id);
    const n = pageParams.length;
    filter = `${counted} AND (m."createdAt", m."id") ${dir === "DESC" ? "<" : ">"} ($${n - 1}::timestamp, $${n}::uuid)`;
  }
  const [limit, offset] = [`$${pageParams.length + 1}`, `$${pageParams.length + 2}`];
  // A later page: the skipped rows are walked in the (chatflowId, createdAt, id) index alone, and
  // only the page's rows are read (one query sorting every row of the chatflow to skip past them
  // was what made deep pages slow).
  const pageSql =
    skip === 0
      ? `SELECT ${MESSAGE_COLUMNS} FROM "ChatMessage" m LEFT JOIN "ChatMessageFeedback" f ON f."messageId" = m."id"
         WHERE ${filter} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`
      : `SELECT ${MESSAGE_COLUMNS} FROM (SELECT m."id" FROM "ChatMessage" m WHERE ${filter} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}) page
         JOIN "ChatMessage" m ON m."id" = page."id" LEFT JOIN "ChatMessageFeedback" f ON f."messageId" = m."id"
         ORDER BY ${order}`;
  const [[{ total }], rows] = await Promise.all([
    sql<{ total: number }>(`SELECT count(*)::int AS "total" FROM "ChatMessage" m WHERE ${counted}`, filterParams),
    sql<MessageListRow>(pageSql, [...pageParams, take, skip]),
  ]);
  return { total, rows };
}

/**
 * Deletes every matching message in one transaction and returns how many went, with the stored
 * upload paths of the deleted rows (so the caller can remove the files after the commit).
 */
export async function deleteChatMessages({ where }: { where: MessageWhere }) {
  const db = await getDb();
  const w = toWhere(where, await ratedExchangeIds(where));
  return db.$transaction(async (tx) => {
    const withFiles = await tx.chatMessage.findMany({
      where: { AND: [w, { fileUploads: { not: Prisma.AnyNull } }] },
      select: { fileUploads: true },
    });
    const { count } = await tx.chatMessage.deleteMany({ where: w });
    return { count, fileUploads: withFiles.map((r) => r.fileUploads) };
  });
}

export type SessionRow = {
  sessionId: string;
  chatType: ChatType;
  firstMessage: string | null;
  messageCount: number;
  firstAt: Date;
  lastAt: Date;
};

/** Sessions of a chatflow with their first question, message count and last activity, newest first. */
export async function findSessions({
  chatflowId,
  chatType,
  createdAt,
  skip,
  take,
  after,
}: {
  chatflowId: string;
  chatType?: ChatType;
  createdAt?: { gte?: Date; lt?: Date; lte?: Date };
  skip: number;
  take: number;
  /** A keyset page: the sessions after this one (latest message first, session id breaking ties). */
  after?: { lastAt: Date; sessionId: string };
}): Promise<{ total: number; rows: SessionRow[] }> {
  const db = await getDb();
  const conds = [Prisma.sql`"chatflowId" = ${chatflowId}::uuid`];
  if (chatType) conds.push(Prisma.sql`"chatType" = ${chatType}::"ChatType"`);
  if (createdAt?.gte) conds.push(Prisma.sql`"createdAt" >= ${createdAt.gte}`);
  if (createdAt?.lt) conds.push(Prisma.sql`"createdAt" < ${createdAt.lt}`);
  if (createdAt?.lte) conds.push(Prisma.sql`"createdAt" <= ${createdAt.lte}`);
  const where = Prisma.join(conds, " AND ");
  const afterCursor = after
    ? Prisma.sql`WHERE s."lastAt" < ${after.lastAt} OR (s."lastAt" = ${after.lastAt} AND s."sessionId" > ${after.sessionId})`
    : Prisma.empty;
  const [counted, rows] = await Promise.all([
    db.$queryRaw<{ total: bigint | number }[]>`
      SELECT COUNT(DISTINCT "sessionId") AS total FROM "ChatMessage" WHERE ${where}`,
    db.$queryRaw<SessionRow[]>`
      SELECT s."sessionId", s."chatType", s."messageCount", s."firstAt", s."lastAt",
        (SELECT m.content FROM "ChatMessage" m
          WHERE m."chatflowId" = ${chatflowId}::uuid AND m."sessionId" = s."sessionId" AND m.role = 'userMessage'
          ORDER BY m."createdAt" ASC LIMIT 1) AS "firstMessage"
      FROM (
        SELECT "sessionId", MIN("chatType"::text) AS "chatType", COUNT(*)::int AS "messageCount",
          MIN("createdAt") AS "firstAt", MAX("createdAt") AS "lastAt"
        FROM "ChatMessage" WHERE ${where}
        GROUP BY "sessionId"
      ) s
      ${afterCursor}
      ORDER BY s."lastAt" DESC, s."sessionId" ASC
      OFFSET ${skip} LIMIT ${take}`,
  ]);
  return { total: Number(counted[0]?.total ?? 0), rows };
}

/** Which of `paths` are still named in the fileUploads of a chatflow's messages. */
export async function findReferencedUploadPaths({
  chatflowId,
  paths,
}: {
  chatflowId: string;
  paths: string[];
}): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const db = await getDb();
  const rows = await db.$queryRaw<{ path: string }[]>`
    SELECT DISTINCT f->>'path' AS "path"
    FROM "ChatMessage" m
    CROSS JOIN LATERAL jsonb_array_elements(
      CASE WHEN jsonb_typeof(m."fileUploads") = 'array' THEN m."fileUploads" ELSE '[]'::jsonb END) f
    WHERE m."chatflowId" = ${chatflowId}::uuid AND m."fileUploads" IS NOT NULL AND f->>'path' = ANY(${paths}::text[])`;
  return new Set(rows.map((r) => r.path));
}

/**
 * A session's last messages, newest first: a backward scan of the index on (chatflowId, sessionId,
 * createdAt, role), which gives exactly this order (role last, the column's enum order, not the
 * text selected: an answer sorts after its question when both have the same millisecond), so no
 * plan needs a sort. That is what lets it be prepared: after five calls PostgreSQL may keep a
 * generic plan, made without the values, and while the order was the role's text, which no index
 * held, the generic plan on a new database walked the chatflow's whole history backwards by
 * (chatflowId, createdAt), filtering by session. tests/integration/session-history.test.ts checks
 * the generic plan.
 */
export const SESSION_HISTORY_SQL = `SELECT "role"::text AS "role", "content",
      (extract(epoch FROM "createdAt") * 1000)::float8 AS "at" FROM "ChatMessage"
      WHERE "chatflowId" = $1::uuid AND "sessionId" = $2
      ORDER BY "ChatMessage"."createdAt" DESC, "ChatMessage"."role" DESC LIMIT $3`;
/**
 * The read as a prepared statement on the embedded database's thread (OpenDatabase.sql): parsed and
 * planned once per connection.
 */
export const SESSION_HISTORY_SQL_NAME = "session_history";

/**
 * The last `limit` messages of a session, oldest first (what memory nodes read), with each one's
 * createdAt in ms (`times[i]` is `messages[i]`'s). Plain SQL: hot path.
 */
export async function findSessionHistory({
  chatflowId,
  sessionId,
  limit,
}: {
  chatflowId: string;
  sessionId: string;
  limit: number;
}): Promise<{ messages: { role: "userMessage" | "apiMessage"; content: string }[]; times: number[] }> {
  const rows = await (await getSql())<{ role: "userMessage" | "apiMessage"; content: string; at: number }>(
    SESSION_HISTORY_SQL,
    [chatflowId, sessionId, limit],
    SESSION_HISTORY_SQL_NAME,
  );
  const messages = new Array<{ role: "userMessage" | "apiMessage"; content: string }>(rows.length);
  const times = new Array<number>(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    const r = rows[rows.length - 1 - i];
    messages[i] = { role: r.role, content: r.content };
    times[i] = Number(r.at);
  }
  return { messages, times };
}

/** Both rows of an exchange in one INSERT (see insertExchange). */
export const INSERT_EXCHANGE_SQL = `INSERT INTO "ChatMessage" ("id","chatflowId","sessionId","chatId","role","content","fileUploads","usedTools","sourceDocuments","chatType","memoryType","createdAt","chatflowVersion")
     VALUES ($1::uuid,$3::uuid,$4,$5,'userMessage'::"MessageRole",$6,$7::jsonb,NULL,NULL,$11::"ChatType",$12,$13,NULL),
            ($2::uuid,$3::uuid,$4,$5,'apiMessage'::"MessageRole",$8,NULL,$9::jsonb,$10::jsonb,$11::"ChatType",$12,$14,$15::int)
     ON CONFLICT ("id") DO NOTHING`;
/**
 * A prepared statement on the embedded database's thread (OpenDatabase.sql): parsed and planned once
 * per connection (an INSERT … VALUES has one plan whatever its values); bench/db-statements.ts
 * measures it (bench/measured.md, "Prepared insert").
 */
export const INSERT_EXCHANGE_SQL_NAME = "insert_exchange";

/**
 * Stores one exchange (question and answer) with a single INSERT of both rows, which is atomic on
 * its own and costs one round trip instead of a four-statement transaction. Ids are made here.
 */
export async function insertExchange(input: {
  chatflowId: string;
  sessionId: string;
  chatId: string;
  chatType: ChatType;
  memoryType?: string;
  question: string;
  fileUploads?: unknown;
  answer: string;
  usedTools?: unknown;
  sourceDocuments?: unknown;
  askedAt: Date;
  answeredAt: Date;
  /** The chatflow version that answered (stored on the answer). */
  chatflowVersion?: number;
  /**
   * The queue job this exchange answers (queue mode): its two ids are derived from it and the insert
   * does nothing when they exist, so a job retried after its worker died stores the exchange once.
   */
  runId?: string;
}) {
  const { userMessageId, apiMessageId } = input.runId
    ? exchangeIdsOfRun(input.runId)
    : { userMessageId: randomUUID(), apiMessageId: randomUUID() };
  // Answers, transcripts and tool output come from models and tools, not from a checked request
  // body: NUL or a lone surrogate there must not fail the write (see storable-text.ts).
  const json = (v: unknown) => (v === undefined || v === null ? null : storableJsonText(v));
  const { chatflowId, sessionId, chatId, chatType } = input;
  const memoryType = input.memoryType ?? null;
  const { askedAt, answeredAt } = exchangeTimes(input.askedAt, input.answeredAt);
  // One INSERT of both rows: atomic on its own. Plain SQL: this runs on every prediction.
  await (await getSql())(
    INSERT_EXCHANGE_SQL,
    [
      userMessageId,
      apiMessageId,
      chatflowId,
      sessionId,
      chatId,
      storableText(input.question),
      json(input.fileUploads),
      storableText(input.answer),
      json(input.usedTools),
      json(input.sourceDocuments),
      chatType,
      memoryType,
      // UTC text, as Prisma writes timestamp(3) columns (a Date would be sent in local time by node-pg).
      new Date(askedAt).toISOString(),
      new Date(answeredAt).toISOString(),
      input.chatflowVersion ?? null,
    ],
    INSERT_EXCHANGE_SQL_NAME,
  );
  return { userMessageId, apiMessageId };
}

/**
 * The createdAt values (ms) insertExchange stores for an exchange: milliseconds, as the columns keep
 * them, the answer at least 1 ms after the question (lists ordered by (createdAt, id) never put an
 * instant answer before its question).
 */
export function exchangeTimes(askedAt: Date, answeredAt: Date): { askedAt: number; answeredAt: number } {
  return { askedAt: askedAt.getTime(), answeredAt: Math.max(answeredAt.getTime(), askedAt.getTime() + 1) };
}

/** The two message ids of a run's exchange: UUID-shaped (version 5 style) from sha256(runId + role). */
export function exchangeIdsOfRun(runId: string): { userMessageId: string; apiMessageId: string } {
  const id = (role: string) => {
    const h = createHash("sha256").update(`${runId}:${role}`).digest();
    h[6] = (h[6] & 0x0f) | 0x50;
    h[8] = (h[8] & 0x3f) | 0x80;
    const x = h.subarray(0, 16).toString("hex");
    return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
  };
  return { userMessageId: id("userMessage"), apiMessageId: id("apiMessage") };
}

/** The stored exchange of a run (see insertExchange's runId), or null when it was not stored yet. */
export async function findExchangeOfRun(runId: string) {
  const { userMessageId, apiMessageId } = exchangeIdsOfRun(runId);
  const rows = await (await getDb()).chatMessage.findMany({ where: { id: { in: [userMessageId, apiMessageId] } } });
  const user = rows.find((r) => r.id === userMessageId);
  const api = rows.find((r) => r.id === apiMessageId);
  return user && api ? { user, api } : null;
}

/** The newest stored upload named `name` in a chat of a chatflow (GET /get-upload-file), or null. */
export async function findUploadInChat({
  chatflowId,
  chatId,
  name,
}: {
  chatflowId: string;
  chatId: string;
  name: string;
}): Promise<{ path: string; mime: string | null } | null> {
  const db = await getDb();
  const rows = await db.$queryRaw<{ path: string | null; mime: string | null }[]>`
    SELECT f->>'path' AS "path", f->>'mime' AS "mime"
    FROM "ChatMessage" m
    CROSS JOIN LATERAL jsonb_array_elements(
      CASE WHEN jsonb_typeof(m."fileUploads") = 'array' THEN m."fileUploads" ELSE '[]'::jsonb END) f
    WHERE m."chatflowId" = ${chatflowId}::uuid AND m."chatId" = ${chatId} AND m."fileUploads" IS NOT NULL
      AND f->>'name' = ${name} AND jsonb_typeof(f->'path') = 'string'
    ORDER BY m."createdAt" DESC, m."id" DESC
    LIMIT 1`;
  const row = rows[0];
  return row?.path ? { path: row.path, mime: row.mime } : null;
}
