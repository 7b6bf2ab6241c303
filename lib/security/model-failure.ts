import { AppError } from "@/common/errors";

/** Who made a model call, for the sentence a person reads: "Chat model “Support bot”". */
export interface ModelCaller {
  /** What the caller is: "Chat model", "Embeddings model", "Speech-to-text". */
  kind: string;
  /** The node on the canvas (absent for calls no node makes, e.g. speech-to-text). */
  node?: { id: string; label: string };
}

/** Why a model call failed, for API callers (`error.details.reason`). */
export type ModelFailureReason =
  | "connection_refused"
  | "unreachable"
  | "dns"
  | "timeout"
  | "refused_by_guard"
  | "credentials_refused"
  | "rate_limited"
  | "unavailable"
  | "http_error"
  | "failed";

/** `error.details` of a model failure: which node, which host, why (and the HTTP status the provider gave). */
export interface ModelFailureDetails {
  node?: { id: string; label: string };
  kind: string;
  host: string;
  reason: ModelFailureReason;
  status?: number;
}

/** "Chat model “Support bot”", or the kind alone for calls no node makes. */
export function callerName(caller: ModelCaller): string {
  return caller.node ? `${caller.kind} “${caller.node.label}”` : caller.kind;
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

function errnoOf(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 4 && cur; depth += 1) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z_]+$/.test(code)) return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

const UNREACHABLE_WORDS: Record<string, string> = {
  ECONNREFUSED: "connection refused at",
  EHOSTUNREACH: "no route to",
  ENETUNREACH: "no network route to",
  EHOSTDOWN: "the host is down:",
  ECONNRESET: "the connection was reset by",
};

function failure(code: AppError["code"], message: string, details: ModelFailureDetails, cause: unknown): AppError {
  return new AppError(code, message, { details, cause });
}

/**
 * The outbound guard's error for one model call, said as a sentence about the node: "Chat model
 * “Support bot” could not be reached: connection refused at 127.0.0.1:4111." Its code stays an
 * upstream one (502/503/504) or the guard's refusal; node, host and reason go to `details`.
 * Anything that is not an AppError (a client that went away) passes unchanged.
 */
export function describeModelFailure(err: unknown, caller: ModelCaller, host: string, timeoutMs: number): unknown {
  if (!(err instanceof AppError)) return err;
  const who = callerName(caller);
  const base = { ...(caller.node ? { node: caller.node } : {}), kind: caller.kind, host };
  const errno = errnoOf(err.cause);
  if (err.code === "forbidden") {
    const why = err.message.replace(/^.*?Outbound request refused: /, "").replace(/\.?$/, ".");
    return failure(err.code, `${who} may not call ${host}: ${why}`, { ...base, reason: "refused_by_guard" }, err);
  }
  if (err.code === "upstream_timeout") {
    return failure(
      err.code,
      `${who} did not answer within ${duration(timeoutMs)} (${host}).`,
      { ...base, reason: "timeout" },
      err,
    );
  }
  if (errno && UNREACHABLE_WORDS[errno]) {
    return failure(
      "upstream_unavailable",
      `${who} could not be reached: ${UNREACHABLE_WORDS[errno]} ${host}.`,
      { ...base, reason: errno === "ECONNREFUSED" ? "connection_refused" : "unreachable" },
      err,
    );
  }
  if (errno === "ENOTFOUND" || errno === "EAI_AGAIN" || /could not resolve host|has no address/.test(err.message)) {
    const hostname = host.replace(/:\d+$/, "");
    return failure(
      "upstream_unavailable",
      `${who} could not be reached: the host name “${hostname}” could not be resolved (DNS).`,
      { ...base, reason: "dns" },
      err,
    );
  }
  const why = err.message.replace(/^.*?Outbound request (to \S+ )?failed: /, "").replace(/\.?$/, ".");
  return failure(err.code, `${who} failed: ${why}`, { ...base, reason: "failed" }, err);
}

/** A provider's error status as a sentence about the node (undefined below 500 except refused keys and 429). */
export function modelStatusFailure(
  caller: ModelCaller,
  host: string,
  status: number,
  authHint?: string,
  retryAfter?: string | null,
): AppError | undefined {
  const who = callerName(caller);
  const base = { ...(caller.node ? { node: caller.node } : {}), kind: caller.kind, host, status };
  if (status === 429) {
    // The provider's own wait, passed on (seconds or an HTTP date, as it sent it) so callers back off.
    const wait = retryAfter?.trim() && /^[\x20-\x7e]{1,64}$/.test(retryAfter.trim()) ? retryAfter.trim() : undefined;
    return new AppError(
      "upstream_unavailable",
      `${who} was rate limited by the provider at ${host} (HTTP 429)${wait ? `; it asks to retry after ${wait}` : ""}.`,
      {
        details: { ...base, reason: "rate_limited" } satisfies ModelFailureDetails,
        ...(wait ? { headers: { "Retry-After": wait } } : {}),
      },
    );
  }
  if (status === 401 || status === 403) {
    const hint = authHint ? ` ${authHint}` : "";
    return new AppError(
      "upstream_error",
      `${who} was turned away by the provider at ${host}: it refused the credentials (HTTP ${status}).${hint}`,
      { details: { ...base, reason: "credentials_refused" } satisfies ModelFailureDetails },
    );
  }
  if (status === 503 || status === 529) {
    return new AppError(
      "upstream_unavailable",
      `${who} is unavailable: the provider at ${host} answered HTTP ${status}.`,
      { details: { ...base, reason: "unavailable" } satisfies ModelFailureDetails },
    );
  }
  if (status >= 500) {
    return new AppError("upstream_error", `${who} failed: the provider at ${host} answered HTTP ${status}.`, {
      details: { ...base, reason: "http_error" } satisfies ModelFailureDetails,
    });
  }
  return undefined;
}
