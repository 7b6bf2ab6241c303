import { randomUUID } from "node:crypto";
import { getDb } from "../client";
import type { ChatType } from "../generated/enums";

/** The last `limit` messages of a session, oldest first (what memory nodes read). */
export async function findSessionHistory({ chatflowId, sessionId, limit }: { chatflowId: string; sessionId: string; limit: number }) {
  const rows = await (await getDb()).chatMessage.findMany({
    where: { chatflowId, sessionId },
    orderBy: [{ createdAt: "desc" }, { role: "asc" }],
    take: limit,
    select: { role: true, content: true },
  });
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
  const common = { chatflowId: input.chatflowId, sessionId: input.sessionId, chatId: input.chatId, chatType: input.chatType, memoryType: input.memoryType ?? null };
  const userMessageId = randomUUID();
  const apiMessageId = randomUUID();
  await (await getDb()).chatMessage.createMany({
    data: [
      { ...common, id: userMessageId, role: "userMessage", content: input.question, fileUploads: (input.fileUploads ?? undefined) as never, createdAt: input.askedAt },
      {
        ...common, id: apiMessageId, role: "apiMessage", content: input.answer, createdAt: input.answeredAt,
        usedTools: (input.usedTools ?? undefined) as never, sourceDocuments: (input.sourceDocuments ?? undefined) as never,
      },
    ],
  });
  return { userMessageId, apiMessageId };
}
