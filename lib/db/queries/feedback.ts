import { keysetArgs, pageFrom, type KeysetOrder } from "../keyset";
import type { PageRequest } from "@/common/schemas/pagination";
import { getDb } from "../client";
import type { FeedbackRating } from "../generated/enums";

/** The ChatMessageFeedback table: one rating per answer (upserted), removed with its message or chatflow. */

/** A message of a chatflow's chat (for checking what a visitor rates). */
export async function findChatMessageInChat(args: { chatflowId: string; chatId: string; messageId: string }) {
  const db = await getDb();
  return db.chatMessage.findFirst({
    where: { id: args.messageId, chatflowId: args.chatflowId, chatId: args.chatId },
    select: { id: true, role: true },
  });
}

/** Creates or replaces the one feedback of a message. */
export async function upsertFeedback(input: {
  chatflowId: string;
  chatId: string;
  messageId: string;
  rating: FeedbackRating;
  content?: string;
}) {
  const db = await getDb();
  const { chatflowId, chatId, messageId, rating, content } = input;
  return db.chatMessageFeedback.upsert({
    where: { messageId },
    create: { chatflowId, chatId, messageId, rating, content: content ?? "" },
    update: { rating, ...(content !== undefined ? { content } : {}) },
  });
}

export async function findFeedbackById(id: string) {
  return (await getDb()).chatMessageFeedback.findUnique({ where: { id } });
}

export async function updateFeedback(id: string, data: { rating?: FeedbackRating; content?: string }) {
  return (await getDb()).chatMessageFeedback.update({ where: { id }, data });
}

export async function findFeedback(args: {
  chatflowId: string;
  chatId?: string;
  createdAt?: { gte?: Date; lt?: Date; lte?: Date };
  direction: "asc" | "desc";
  page?: PageRequest;
}) {
  const order: KeysetOrder = {
    list: "feedback",
    field: "createdAt",
    direction: args.direction,
    kind: "date",
  };
  const keyset = keysetArgs(order, args.page);
  const db = await getDb();
  const rows = await db.chatMessageFeedback.findMany({
    where: {
      AND: [
        {
          chatflowId: args.chatflowId,
          ...(args.chatId ? { chatId: args.chatId } : {}),
          ...(args.createdAt ? { createdAt: args.createdAt } : {}),
        },
        keyset.where,
      ],
    },
    orderBy: keyset.orderBy,
    take: keyset.take,
  });
  return pageFrom(rows, order, args.page);
}
