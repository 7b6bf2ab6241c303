import { AppError, errorBody, isAppError } from "@/common/errors";
import { log as processLog, type Logger } from "../log";
import { asDatabaseUnavailable } from "../db/unavailable";

/** A JSON response. */
export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/**
 * Maps any thrown value to the error shape; unknown errors are logged and answered as a bare 500.
 * With the request's id, the body carries it (`error.requestId`, also in `x-request-id`), so a
 * caller can quote it and an operator find the request's log lines.
 */
export function errorResponse(err: unknown, log: Logger = processLog, requestId?: string): Response {
  const appError = asAppError(err);
  if (appError.code === "internal") log.error({ err }, "unhandled error");
  else if (appError.status >= 500) log.warn({ code: appError.code, reason: appError.message }, "answered 5xx");
  const body = errorBody(appError);
  if (requestId) (body.error as Record<string, unknown>).requestId = requestId;
  return json(body, appError.status, {
    ...appError.headers,
    ...(requestId ? { "x-request-id": requestId } : {}),
  });
}

/** Any thrown value as an AppError: known database races get their 404/409, the rest `internal`. */
export function asAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  // Prisma's "record not found" on a racing delete is a 404, not a server fault.
  const code = (err as { code?: string } | null)?.code;
  if (code === "P2025") return new AppError("not_found", "The record no longer exists.");
  if (code === "P2002") return new AppError("conflict", "A record with the same unique value already exists.");
  // The database server down or restarting is a 503 naming it (host:port), not a 500.
  const unavailable = safely(() => asDatabaseUnavailable(err));
  if (unavailable) return unavailable;
  return new AppError("internal", "Internal server error.");
}

function safely<T>(f: () => T): T | null {
  try {
    return f();
  } catch {
    return null; // e.g. an invalid configuration: the error stays `internal`
  }
}
