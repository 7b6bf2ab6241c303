import type { ChatMessageRecord } from "./chat-message";

const COLUMNS = [
  "id",
  "createdDate",
  "sessionId",
  "chatId",
  "chatType",
  "role",
  "content",
  "memoryType",
  "chatflowVersion",
  "usedTools",
  "sourceDocuments",
  "fileUploads",
] as const;
/** The answer's rating and comment (empty when unrated). */
const FEEDBACK_COLUMNS = ["feedbackRating", "feedbackContent"] as const;

/** One CSV field: quoted when needed, and a leading = + - @ neutralised so spreadsheets do not run it as a formula. */
export function csvField(value: unknown): string {
  let s = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Messages as CSV (RFC 4180, CRLF line ends, header row); JSON fields are written as JSON text. */
export function chatMessagesToCsv(records: ChatMessageRecord[]): string {
  const lines = [[...COLUMNS, ...FEEDBACK_COLUMNS].join(",")];
  for (const r of records)
    lines.push(
      [...COLUMNS.map((c) => csvField(r[c])), csvField(r.feedback?.rating), csvField(r.feedback?.content)].join(","),
    );
  return `${lines.join("\r\n")}\r\n`;
}
