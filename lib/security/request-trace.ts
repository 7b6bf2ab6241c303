import { AsyncLocalStorage } from "node:async_hooks";
import type { ToolRequest } from "@/common/schemas/prediction-stream";

/**
 * What a tool call sent out: each outbound request made while it ran (through the outbound guard),
 * as method, URL without secrets, status and time. A tool call is traced with `traceRequests`; the
 * guard notes each request in the innermost trace open. Model calls are not noted (the answer's
 * usage tells them). Nothing is kept outside a trace.
 */

/** Most requests kept per tool call (a crawl would make thousands). */
export const MAX_TRACED_REQUESTS = 20;

const open = new AsyncLocalStorage<ToolRequest[]>();

/** Runs `fn` with a trace open; answers its value and the requests made meanwhile (in the order they were sent). */
export async function traceRequests<T>(fn: () => Promise<T>): Promise<{ value: T; requests: ToolRequest[] }> {
  const requests: ToolRequest[] = [];
  const value = await open.run(requests, fn);
  return { value, requests };
}

/** Whether a trace is open here (the guard skips its clock otherwise). */
export function tracingRequests(): boolean {
  return open.getStore() !== undefined;
}

/** Notes one request in the open trace, if any. */
export function noteRequest(request: ToolRequest): void {
  const requests = open.getStore();
  if (requests && requests.length < MAX_TRACED_REQUESTS) requests.push(request);
}

/** Query parameter names whose values are secrets (keys, tokens, signatures, passwords, OAuth's `code`). */
const SECRET_PARAM = /(key|token|secret|passw|pwd|auth|sig|session|credential)|^code$/i;

/**
 * A URL as a trace may show it: no user or password, no fragment, and the value of every query
 * parameter whose name says it is a secret replaced by `***`. Headers are never shown.
 */
export function shownUrl(url: URL | string): string {
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    return "(unreadable URL)";
  }
  const params = [...u.searchParams].map(([k, v]) => [k, SECRET_PARAM.test(k) ? "***" : v]);
  const query = params.length ? `?${new URLSearchParams(params).toString().replace(/%2A%2A%2A/g, "***")}` : "";
  return `${u.origin}${u.pathname}${query}`;
}
