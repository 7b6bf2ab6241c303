export type { ChatMessageRecord, SessionSummary } from "@/lib/schemas/chat-message";

export type Filters = { startDate: string; endDate: string; chatType: "" | "INTERNAL" | "EXTERNAL" };

/** The query string of the Message API for the view's filters (and extra parameters). */
export function filterQuery(f: Filters, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  if (f.startDate) q.set("startDate", f.startDate);
  if (f.endDate) q.set("endDate", f.endDate);
  if (f.chatType) q.set("chatType", f.chatType);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}
