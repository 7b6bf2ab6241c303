import { randomUUID } from "node:crypto";
import { getSql } from "../client";
import type { ChatType } from "../generated/enums";
import { storableJsonText, storableText } from "../storable-text";

/** The last `limit` messages of a session, oldest first (what memory nodes read). Plain SQL: hot path. */
export async function findSessionHistory({ chatflowId, sessionId, limit }: { chatflowId: string; sessionId: string; limit: number }) {
  const rows = await (await getSql())<{ role: "userMessage" | "apiMessage"; content: string }>(
    `SELECT "role"::text AS "role", "content" FROM "ChatMessage"
      WHERE "chatflowId" = $1::uuid AND "sessionId" = $2
      ORDER BY "createdAt" DESC, "role" ASC LIMIT $3`,
    [chatflowId, sessionId, limit],
  );
  return rows.reverse();
}

/**
 * Stores one exchange (question and answer) with a single INSERT of both rows, which is atomic on
 * its own and costs one round trip instead of a four-statement transaction. Ids are made here.
 */
export async function insertExchange(input: {
  chatflowId: string; sessionId: string; chatId: string; chatType: ChatType; memoryType?: string;
  question: string; fileUploads?: unknown; answer: string; usedTools?: unknown; sourceDocuments?: unknown;
  askedAt: Date; answeredAt: Date;
}) {
  const userMessageId = randomUUID();
  const apiMessageId = randomUUID();
  // Answers, transcripts and tool output come from models and tools, not from a checked request
  // body: NUL or a lone surrogate there must not fail the write (see storable-text.ts).
  const json = (v: unknown) => (v === undefined || v === null ? null : storableJsonText(v));
  const { chatflowId, sessionId, chatId, chatType } = input;
  const memoryType = input.memoryType ?? null;
  // One INSERT of both rows: atomic on its own. Plain SQL: this runs on every prediction.
  await (await getSql())(
    `INSERT INTO "ChatMessage" ("id","chatflowId","sessionId","chatId","role","content","fileUploads","usedTools","sourceDocuments","chatType","memoryType","createdAt")
     VALUES ($1::uuid,$3::uuid,$4,$5,'userMessage'::"MessageRole",$6,$7::jsonb,NULL,NULL,$11::"ChatType",$12,$13),
            ($2::uuid,$3::uuid,$4,$5,'apiMessage'::"MessageRole",$8,NULL,$9::jsonb,$10::jsonb,$11::"ChatType",$12,$14)`,
    [userMessageId, apiMessageId, chatflowId, sessionId, chatId, storableText(input.question), json(input.fileUploads), storableText(input.answer),
      json(input.usedTools), json(input.sourceDocuments), chatType, memoryType,
      // UTC text, as Prisma writes timestamp(3) columns (a Date would be sent in local time by node-pg).
      input.askedAt.toISOString(), input.answeredAt.toISOString()],
  );
  return { userMessageId, apiMessageId };
}
