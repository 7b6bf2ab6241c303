/** The `error` event of the prediction stream: the same `{ code, message }` as a JSON error body. */
export type { StreamError } from "./prediction-stream";

/**
 * The words to show for a stream's `error` event. Older servers (and Flowise) send the message as
 * a plain string; ours send `{ code, message }`. Only when neither holds text is `fallback` shown.
 * Plain code without imports: the widget bundles it.
 */
export function streamErrorMessage(data: unknown, fallback: string): string {
  if (typeof data === "string" && data.trim()) return data;
  const message = (data as { message?: unknown } | null)?.message;
  return typeof message === "string" && message.trim() ? message : fallback;
}
