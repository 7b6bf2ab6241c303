import { encodeCursor } from "@/common/schemas/pagination";
import { getEnv } from "../env";
import {
  deleteChatMessages as deleteRows,
  findChatMessages,
  type MessageListRow,
  findReferencedUploadPaths,
  findSessions,
} from "../db/queries/chat-messages";
import { removeStoredFiles, withUploadsLock } from "../security/stored-files";
import type { Caller } from "@/common/access/callers";
import {
  chatMessageRecordSchema,
  type ChatMessageFilters,
  type ChatMessageRecord,
  type ListChatMessagesQuery,
  type ListSessionsQuery,
  type SessionSummary,
} from "@/common/schemas/chat-message";
import { parseStoredJson } from "../db/stored-json";
import { getChatflowOrThrow } from "./chatflows";
import { usageOfMessages } from "./usage";
import { publishChange } from "../state";

type FileUpload = NonNullable<ChatMessageRecord["fileUploads"]>[number];
const storedFileUploads = chatMessageRecordSchema.shape.fileUploads;

/**
 * The Message API's view of a stored message (Flowise's field names), straight from the page
 * query's row: a page is up to 1,000 rows, and an intermediate object per row (an object rest/spread,
 * timestamps parsed into Dates only to be written back as text) was a large share of the answer's
 * time (bench/measured.md, "Message API pages").
 */
export function toChatMessageRecord(row: MessageListRow): ChatMessageRecord {
  return {
    id: row.id,
    role: row.role,
    chatflowid: row.chatflowId,
    content: row.content,
    sessionId: row.sessionId,
    chatId: row.chatId,
    chatType: row.chatType,
    memoryType: row.memoryType,
    chatflowVersion: row.chatflowVersion ?? null,
    sourceDocuments: row.sourceDocuments ?? null,
    usedTools: row.usedTools ?? null,
    // Read with the schema (most messages carry none: no parse for them).
    fileUploads:
      row.fileUploads === null
        ? null
        : parseStoredJson(storedFileUploads, row.fileUploads, {
            table: "ChatMessage",
            column: "fileUploads",
            id: row.id,
          }),
    createdDate: row.createdDate,
    feedback:
      // Set together (a joined feedback row) or all null.
      row.fId !== null && row.fRating !== null && row.fCreatedDate !== null
        ? { id: row.fId, rating: row.fRating, content: row.fContent ?? "", createdDate: row.fCreatedDate }
        : null,
  };
}

/**
 * Messages of a chatflow matching the filters, one page at most, with the total of all matches.
 * 404 for an unknown chatflow; an API key scoped elsewhere gets 403.
 */
export async function listChatMessages(chatflowId: string, query: ListChatMessagesQuery, caller: Caller) {
  await getChatflowOrThrow(chatflowId, caller, "chatmessage.read");
  const { direction, page, limit, cursor, ...filters } = query;
  // One row past the page tells whether another follows: its cursor is the page's last row.
  const { total, rows: read } = await findChatMessages({
    where: { chatflowId, ...filters },
    direction,
    skip: cursor ? 0 : (page - 1) * limit,
    take: limit + 1,
    ...(cursor ? { after: { createdAt: new Date(Number(cursor.key)), id: cursor.id } } : {}),
  });
  const rows = read.slice(0, limit);
  const last = rows[rows.length - 1];
  const nextCursor =
    read.length > limit && last
      ? encodeCursor("chatmessage", { key: Date.parse(last.createdDate), id: last.id })
      : null;
  const records = rows.map(toChatMessageRecord);
  // Answers carry their usage (one indexed read for the page's answers).
  const usage = await usageOfMessages(records.filter((r) => r.role === "apiMessage").map((r) => r.id));
  for (const r of records) {
    const u = usage.get(r.id);
    if (u) r.usage = u;
  }
  return { total, page, limit, records, nextCursor };
}

/**
 * Deletes exactly the matching messages and the files uploaded with them. Memory nodes read a
 * session's stored messages, so deleting a session's messages resets its memory.
 */
export async function deleteChatMessages(chatflowId: string, filters: ChatMessageFilters, caller: Caller) {
  await getChatflowOrThrow(chatflowId, caller, "chatmessage.delete");
  const { count, fileUploads } = await deleteRows({ where: { chatflowId, ...filters } });
  if (count > 0) await publishChange({ type: "chatMessages.deleted", chatflowId });
  const paths = fileUploads.flatMap((list) => (Array.isArray(list) ? (list as FileUpload[]) : [])).map((f) => f?.path);
  await removeUnreferencedUploads(
    chatflowId,
    paths.filter((p): p is string => typeof p === "string"),
  );
  return { deleted: count };
}

/** Sessions of a chatflow for the studio: first question, count, first and last activity. */
export async function listSessions(chatflowId: string, query: ListSessionsQuery, caller: Caller) {
  await getChatflowOrThrow(chatflowId, caller, "chatmessage.read");
  const { page, limit, cursor, ...filters } = query;
  const { total, rows: read } = await findSessions({
    chatflowId,
    ...filters,
    skip: cursor ? 0 : (page - 1) * limit,
    take: limit + 1,
    ...(cursor ? { after: { lastAt: new Date(Number(cursor.key)), sessionId: cursor.id } } : {}),
  });
  const rows = read.slice(0, limit);
  const last = rows[rows.length - 1];
  const nextCursor =
    read.length > limit && last
      ? encodeCursor("sessions", { key: new Date(last.lastAt).getTime(), id: last.sessionId })
      : null;
  const data: SessionSummary[] = rows.map((r) => ({
    sessionId: r.sessionId,
    chatType: r.chatType,
    firstMessage: r.firstMessage ?? "",
    messageCount: Number(r.messageCount),
    firstAt: new Date(r.firstAt).toISOString(),
    lastAt: new Date(r.lastAt).toISOString(),
  }));
  return {
    data,
    pagination: {
      page,
      limit,
      total,
      totalPages: Math.ceil(total / limit),
      hasNext: cursor ? nextCursor !== null : page * limit < total,
    },
    nextCursor,
  };
}

/**
 * Removes the deleted messages' files that no remaining message references: uploads are stored by
 * content hash, so the same image sent in two sessions is one file.
 */
async function removeUnreferencedUploads(chatflowId: string, paths: string[]) {
  if (!paths.length) return;
  await withUploadsLock(chatflowId, async () => {
    const stillUsed = await findReferencedUploadPaths({ chatflowId, paths });
    await removeStoredFiles(
      getEnv().DATA_DIR,
      paths.filter((p) => !stillUsed.has(p)),
    );
  });
}
