/**
 * The one error type of the app. Services and the flow engine throw it; the HTTP wrapper turns it
 * into `{ error: { code, message, details? } }` with the status from STATUS_BY_CODE. Anything else
 * that escapes is a bug and answers 500 `internal` without leaking its message or stack.
 */
export const STATUS_BY_CODE = {
  bad_request: 400,
  validation_failed: 400,
  invalid_id: 400,
  /** A Flowise chatflow with nodes or inputs we cannot import (lib/services/flowise-import.ts). */
  import_unmapped: 400,
  /** An `Idempotency-Key` header that is empty, too long or not printable, or sent where it cannot apply. */
  idempotency_key_invalid: 400,
  invalid_graph: 422,
  unprocessable: 422,
  openapi_no_operation: 422,
  /** User code (lib/sandbox) ran past SANDBOX_TIMEOUT_MS. */
  sandbox_timeout: 422,
  /** User code needed more than SANDBOX_MEMORY_MB. */
  sandbox_memory: 422,
  /** User code threw (the message names its line), recursed past its stack, or its worker stopped. */
  sandbox_error: 422,
  /** User code returned something that is not JSON, or more than SANDBOX_MAX_RESULT_BYTES of it. */
  sandbox_bad_result: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  /** The same `Idempotency-Key` sent with another request (method, path or body) within 24 h. */
  idempotency_key_reused: 409,
  /** A request with this `Idempotency-Key` is still running: retry after it (Retry-After). */
  idempotency_in_progress: 409,
  /** A request body that stopped arriving (npm start's server answers an idle one; route() a cut one). */
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  upstream_error: 502,
  upstream_unavailable: 503,
  upstream_timeout: 504,
  not_configured: 503,
  /** npm start's server: too many bodies from callers without credentials are arriving at once. */
  server_busy: 503,
  /** Queue mode: the job queue (Redis) cannot be reached. */
  queue_unavailable: 503,
  /** Queue mode: the worker running a job stopped mid-run (the job is retried). */
  worker_lost: 503,
  /** Queue mode: no worker finished the job within JOB_TIMEOUT_MS. */
  job_timeout: 504,
  /** The PostgreSQL server cannot be reached (down, restarting): the message names host:port. */
  database_unavailable: 503,
  /** /api/v1/health/ready: a check failed (the message lists them). */
  not_ready: 503,
  /**
   * A stored JSON value (a test case's expectations, a run's results…) that does not match its schema:
   * checked when written, so a row that fails is corrupt data, our fault (logged with the row's id).
   */
  stored_data_invalid: 500,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof STATUS_BY_CODE;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;
  /** Extra response headers, e.g. Retry-After on 429 or WWW-Authenticate on 401. */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { details?: unknown; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.details = opts.details;
    this.headers = opts.headers;
  }

  get status(): number {
    return STATUS_BY_CODE[this.code];
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** The JSON body every error answers with. */
export function errorBody(err: AppError) {
  return {
    error: {
      code: err.code,
      message: err.message,
      ...(err.details === undefined ? {} : { details: err.details }),
    },
  };
}
