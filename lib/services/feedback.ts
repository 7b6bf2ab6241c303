import type { PageRequest } from "@/common/schemas/pagination";
import { mapPage, type Page } from "../db/keyset";
import { AppError } from "@/common/errors";
import { Prisma, type ChatMessageFeedback, type Lead } from "../db/generated/client";
import {
  findChatMessageInChat,
  findFeedback,
  findFeedbackById,
  updateFeedback as updateRow,
  upsertFeedback,
} from "../db/queries/feedback";
import { findLeads, insertLead } from "../db/queries/leads";
import type { Caller } from "@/common/access/callers";
import type { FeedbackRecord, FeedbackRating, LeadRecord } from "@/common/schemas/feedback";
import { getChatflowOrThrow } from "./chatflows";
import { chatflowAtVersion } from "./chatflow-versions";
import { assertMayChat, findRunnable } from "./predictions";
import { feedbackEnabled, leadsEnabled } from "./public-chatbot";

/**
 * Feedback (thumbs on an answer) and leads (the widget's contact form), in Flowise's shapes. They
 * are written by whoever may chat with the chatflow (its manager, or anyone on a public chatflow
 * from an allowed origin, within the public rate limit) and read with the Message API's rights.
 */

/** Who writes, and from where (the chat access check of predictions). */
export type ChatVisitor = { caller: Caller; origin: string | null; clientIp: string };

export function toFeedbackRecord(row: ChatMessageFeedback): FeedbackRecord {
  return {
    id: row.id,
    chatflowid: row.chatflowId,
    chatId: row.chatId,
    messageId: row.messageId,
    rating: row.rating,
    content: row.content,
    createdDate: row.createdAt.toISOString(),
  };
}

export function toLeadRecord(row: Lead): LeadRecord {
  return {
    id: row.id,
    chatflowid: row.chatflowId,
    chatId: row.chatId,
    name: row.name,
    email: row.email,
    phone: row.phone,
    createdDate: row.createdAt.toISOString(),
  };
}

/** The path's chatflow id and the body's `chatflowid` (Flowise sends both) must agree; one is needed. */
export function chatflowIdOf(pathId: string | undefined, bodyId: string | undefined): string {
  if (pathId && bodyId && pathId !== bodyId)
    throw new AppError(
      "validation_failed",
      `body.chatflowid: ${bodyId} does not match the chatflow ${pathId} of the path.`,
    );
  const id = pathId ?? bodyId;
  if (!id) throw new AppError("validation_failed", "body.chatflowid: is required.");
  return id;
}

/** A row that vanished between the check and the write (message or chatflow deleted meanwhile): 404. */
function goneAs404<T>(what: string) {
  return (err: unknown): T => {
    if (err instanceof Prisma.PrismaClientKnownRequestError && ["P2003", "P2025"].includes(err.code))
      throw new AppError("not_found", `${what} not found.`);
    throw err;
  };
}

async function chatflowForVisitor(chatflowId: string, visitor: ChatVisitor) {
  const chatflow = await findRunnable(chatflowId, visitor.caller);
  await assertMayChat(chatflow, { chatflowId, ...visitor });
  // Feedback and lead settings are the published version's (what the widget shows).
  return chatflowAtVersion(chatflow, "published");
}

/** Rates an answer of a chat; a second rating of the same message replaces the first. */
export async function createFeedback(
  input: { chatflowId: string; chatId: string; messageId: string; rating: FeedbackRating; content?: string },
  visitor: ChatVisitor,
): Promise<FeedbackRecord> {
  const chatflow = await chatflowForVisitor(input.chatflowId, visitor);
  if (!feedbackEnabled(chatflow))
    throw new AppError("bad_request", "Feedback is not enabled in this chatflow (chatbotConfig.chatFeedback.status).");
  const message = await findChatMessageInChat(input);
  if (!message)
    throw new AppError("not_found", `Message ${input.messageId} not found in chat ${input.chatId} of this chatflow.`);
  if (message.role !== "apiMessage")
    throw new AppError("validation_failed", "body.messageId: only answers (apiMessage) can be rated.");
  const row = await upsertFeedback(input).catch(goneAs404<never>(`Message ${input.messageId}`));
  return toFeedbackRecord(row);
}

/** Changes a feedback's comment or rating (the widget sends the comment typed after a thumb). */
export async function updateFeedback(
  id: string,
  input: { chatflowid?: string; chatId?: string; messageId?: string; rating?: FeedbackRating; content?: string },
  visitor: ChatVisitor,
): Promise<FeedbackRecord> {
  const existing = await findFeedbackById(id);
  if (!existing) throw new AppError("not_found", `Feedback ${id} not found.`);
  const chatflow = await chatflowForVisitor(existing.chatflowId, visitor).catch((err) => {
    // A private chatflow's feedback is unknown to callers who may not chat with it.
    if (err instanceof AppError && err.code === "not_found")
      throw new AppError("not_found", `Feedback ${id} not found.`);
    throw err;
  });
  // Turned off since the thumb was given: no more changes, as no more ratings.
  if (!feedbackEnabled(chatflow))
    throw new AppError("bad_request", "Feedback is not enabled in this chatflow (chatbotConfig.chatFeedback.status).");
  const moved = (
    [
      ["chatflowid", input.chatflowid, existing.chatflowId],
      ["chatId", input.chatId, existing.chatId],
      ["messageId", input.messageId, existing.messageId],
    ] as const
  ).find(([, given, stored]) => given !== undefined && given !== stored);
  if (moved) throw new AppError("validation_failed", `body.${moved[0]}: does not match feedback ${id}.`);
  const data = {
    ...(input.rating !== undefined ? { rating: input.rating } : {}),
    ...(input.content !== undefined ? { content: input.content } : {}),
  };
  const row = await updateRow(id, data).catch(goneAs404<never>(`Feedback ${id}`));
  return toFeedbackRecord(row);
}

/** A chatflow's feedback for the Message API's readers (admins), Flowise's filters. */
export async function listFeedback(
  chatflowId: string,
  query: { chatId?: string; direction: "asc" | "desc"; createdAt?: { gte?: Date; lt?: Date; lte?: Date } },
  caller: Caller,
  page?: PageRequest,
): Promise<Page<FeedbackRecord>> {
  await getChatflowOrThrow(chatflowId, caller, "chatmessage.read");
  return mapPage(await findFeedback({ chatflowId, ...query, page }), toFeedbackRecord);
}

/** Stores a lead from the widget's form; only when the chatflow asks for leads. */
export async function createLead(
  input: { chatflowId: string; chatId: string; name?: string; email?: string; phone?: string },
  visitor: ChatVisitor,
): Promise<LeadRecord> {
  const chatflow = await chatflowForVisitor(input.chatflowId, visitor);
  if (!leadsEnabled(chatflow))
    throw new AppError("bad_request", "Lead capture is not enabled in this chatflow (chatbotConfig.leads.status).");
  const row = await insertLead({
    chatflowId: chatflow.id,
    chatId: input.chatId,
    name: input.name ?? "",
    email: input.email ?? "",
    phone: input.phone ?? "",
  }).catch(goneAs404<never>(`Chatflow ${input.chatflowId}`));
  return toLeadRecord(row);
}

/** A chatflow's leads for the Message API's readers (admins). */
export async function listLeads(
  chatflowId: string,
  query: { chatId?: string },
  caller: Caller,
  page?: PageRequest,
): Promise<Page<LeadRecord>> {
  await getChatflowOrThrow(chatflowId, caller, "chatmessage.read");
  return mapPage(await findLeads({ chatflowId, ...query, page }), toLeadRecord);
}
