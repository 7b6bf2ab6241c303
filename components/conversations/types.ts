export type { ChatMessageRecord, SessionSummary } from "@/common/schemas/chat-message";

export type Filters = { startDate: string; endDate: string; chatType: "" | "INTERNAL" | "EXTERNAL" };

/** A date picked in the browser as the start (or the last millisecond) of that day in the viewer's time zone. */
function localDayBound(day: string, end: boolean): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(new Date(y, m - 1, end ? d + 1 : d).getTime() - (end ? 1 : 0)).toISOString();
}

/** The query string of the Message API for the view's filters (and extra parameters). */
export function filterQuery(f: Filters, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  if (f.startDate) q.set("startDate", localDayBound(f.startDate, false));
  if (f.endDate) q.set("endDate", localDayBound(f.endDate, true));
  if (f.chatType) q.set("chatType", f.chatType);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}
