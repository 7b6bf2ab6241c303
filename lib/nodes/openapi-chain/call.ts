import { AppError } from "@/common/errors";
import { type Deadline, linkedDeadline } from "../../security/deadline";
import type { GuardedAnswer, GuardedRequest } from "../../security/outbound";
import type { Operation } from "./spec";

/**
 * Makes the one HTTP request of an OpenAPI chain run. The URL is built only from the server URL (the
 * spec's first server or the builder's override) and the operation's own path and method; values
 * chosen by the model only fill path segments (encoded) and query parameters. Redirects are not
 * followed; time and size are capped.
 */

export interface OperationCall {
  /** The guard pinned to the API's server and the spec's methods (ctx.requestFor). */
  send: GuardedRequest;
  serverUrl: string;
  apiTitle: string;
  op: Operation;
  args: Record<string, unknown>;
  headers: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Largest response body read from the API. */
export const MAX_RESPONSE_BYTES = 2_000_000;

/** The request URL for an operation; refuses path values that would leave the operation's path. */
export function buildOperationUrl(serverUrl: string, op: Operation, args: Record<string, unknown>): URL {
  const base = serverUrl.replace(/\/+$/, "");
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = String(args[name] ?? "");
    if (v === "." || v === ".." || v === "") {
      throw new AppError(
        "validation_failed",
        `The value of path parameter ${name} of ${op.operationId} is not allowed.`,
      );
    }
    return encodeURIComponent(v);
  });
  const url = new URL(base + path);
  if (url.origin !== new URL(base).origin)
    throw new AppError("validation_failed", `${op.operationId}: the request URL left the API server.`);
  for (const p of op.params) {
    if (p.in !== "query" || args[p.name] === undefined) continue;
    const v = args[p.name];
    for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(p.name, String(item));
  }
  return url;
}

/** The answer's text, cut at MAX_RESPONSE_BYTES (the rest is not read). */
async function readCapped(res: GuardedAnswer): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.chunks()) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_RESPONSE_BYTES) break;
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES));
}

function statusError(call: OperationCall, url: URL, res: GuardedAnswer, body: string): AppError {
  const what = `The API "${call.apiTitle}" (${call.op.method} ${url.origin}${call.op.path})`;
  const snippet = body.trim() ? `: ${body.trim().slice(0, 300)}` : "";
  if (res.status === 503)
    return new AppError("upstream_unavailable", `${what} is unavailable right now (HTTP 503). Try again later.`);
  if (res.status >= 300 && res.status < 400)
    return new AppError(
      "upstream_error",
      `${what} answered a redirect (HTTP ${res.status}); redirects are not followed.`,
    );
  return new AppError("upstream_error", `${what} answered HTTP ${res.status}${snippet}`);
}

async function send(call: OperationCall, url: URL, deadline: Deadline): Promise<GuardedAnswer> {
  const { signal } = deadline;
  const hasBody = call.args.requestBody !== undefined;
  try {
    return await call.send(url, {
      method: call.op.method,
      headers: {
        accept: "application/json",
        ...(hasBody ? { "content-type": "application/json" } : {}),
        ...call.headers,
      },
      body: hasBody ? JSON.stringify(call.args.requestBody) : undefined,
      redirect: "manual",
      signal,
    });
  } catch (e) {
    if (e instanceof AppError || call.signal?.aborted) throw e;
    if (deadline.expired()) {
      throw new AppError(
        "upstream_timeout",
        `The API "${call.apiTitle}" did not answer within ${call.timeoutMs / 1000} s.`,
        { cause: e },
      );
    }
    throw new AppError("upstream_unavailable", `The API "${call.apiTitle}" at ${url.origin} could not be reached.`, {
      cause: e,
    });
  }
}

/** Calls the operation; returns the response text of a 2xx answer, throws an upstream AppError otherwise. */
export async function callOperation(call: OperationCall): Promise<string> {
  const url = buildOperationUrl(call.serverUrl, call.op, call.args);
  // The time limit covers the answer's body too; released once it is read.
  const deadline = linkedDeadline(call.signal, call.timeoutMs);
  let body: string;
  let res: GuardedAnswer;
  try {
    res = await send(call, url, deadline);
    try {
      body = await readCapped(res);
    } catch (e) {
      if (call.signal?.aborted) throw e;
      throw new AppError("upstream_timeout", `The API "${call.apiTitle}" did not finish its answer in time.`, {
        cause: e,
      });
    }
  } finally {
    deadline.release();
  }
  if (res.status < 200 || res.status >= 300) throw statusError(call, url, res, body);
  return body;
}

/** Cuts a response to what is sent to the model (and stored in usedTools). */
export function truncateForModel(text: string, maxChars = 12_000): string {
  return text.length <= maxChars
    ? text
    : `${text.slice(0, maxChars)}\n…(response truncated, ${text.length} characters in total)`;
}
