import { getDb } from "../client";
import { Prisma } from "../generated/client";
import type { ChatType } from "../generated/enums";

/** Filters of the Message API, already parsed (dates as a range). */
export type MessageWhere = {
  chatflowId: string;
  sessionId?: string;
  chatId?: string;
  chatType?: ChatType;
  messageId?: string;
  memoryType?: string;
  createdAt?: { gte?: Date; lt?: Date; lte?: Date };
};

function toWhere(f: MessageWhere): Prisma.ChatMessageWhereInput {
  return {
    chatflowId: f.chatflowId,
    ...(f.sessionId ? { sessionId: f.sessionId } : {}),
    ...(f.chatId ? { chatId: f.chatId } : {}),
    ...(f.chatType ? { chatType: f.chatType } : {}),
    ...(f.messageId ? { id: f.messageId } : {}),
    ...(f.memoryType ? { memoryType: f.memoryType } : {}),
    ...(f.createdAt ? { createdAt: f.createdAt } : {}),
  };
}

/** One page of matching messages and the total count, ordered by time (id breaks ties). */
export async function findChatMessages({ where, direction, skip, take }: {
  where: MessageWhere; direction: "asc" | "desc"; skip: number; take: number;
}) {
  const db = await getDb();
  const w = toWhere(where);
  const [total, rows] = await Promise.all([
    db.chatMessage.count({ where: w }),
    db.chatMessage.findMany({ where: w, orderBy: [{ createdAt: direction }, { id: direction }], skip, take }),
  ]);
  return { total, rows };
}

/**
 * Deletes every matching message in one transaction and returns how many went, with the stored
 * upload paths of the deleted rows (so the caller can remove the files after the commit).
 */
export async function deleteChatMessages({ where }: { where: MessageWhere }) {
  const db = await getDb();
  const w = toWhere(where);
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
  sessionId: string; chatType: ChatType; firstMessage: string | null; messageCount: number; firstAt: Date; lastAt: Date;
};

/** Sessions of a chatflow with their first question, message count and last activity, newest first. */
export async function findSessions({ chatflowId, chatType, createdAt, skip, take }: {
  chatflowId: string; chatType?: ChatType; createdAt?: { gte?: Date; lt?: Date; lte?: Date }; skip: number; take: number;
}): Promise<{ total: number; rows: SessionRow[] }> {
  const db = await getDb();
  const conds = [Prisma.sql`"chatflowId" = ${chatflowId}::uuid`];
  if (chatType) conds.push(Prisma.sql`"chatType" = ${chatType}::"ChatType"`);
  if (createdAt?.gte) conds.push(Prisma.sql`"createdAt" >= ${createdAt.gte}`);
  if (createdAt?.lt) conds.push(Prisma.sql`"createdAt" < ${createdAt.lt}`);
  if (createdAt?.lte) conds.push(Prisma.sql`"createdAt" <= ${createdAt.lte}`);
  const where = Prisma.join(conds, " AND ");
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
      ORDER BY s."lastAt" DESC, s."sessionId" ASC
      OFFSET ${skip} LIMIT ${take}`,
  ]);
  return { total: Number(counted[0]?.total ?? 0), rows };
}

/** Which of `paths` are still named in the fileUploads of a chatflow's messages. */
export async function findReferencedUploadPaths({ chatflowId, paths }: { chatflowId: string; paths: string[] }): Promise<Set<string>> {
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
