import { AppError } from "@/common/errors";

/**
 * Maps an error escaping a run to an AppError where the cause is known: model provider failures
 * (OpenAI/Anthropic SDK errors carry an HTTP `status`, connection errors and timeouts a name) become
 * 502/503/504; AppErrors and aborts pass unchanged; anything else is a bug and stays as it is.
 * The guarded model fetch throws AppErrors naming the node and the host; the SDKs wrap them
 * (APIConnectionError with a `cause`), so the cause chain is searched first.
 */
export function toRunError(err: unknown, signal?: AbortSignal): unknown {
  if (err instanceof AppError || signal?.aborted || !(err instanceof Error)) return err;
  const inner = appErrorInside(err);
  if (inner) return inner;
  const name = err.constructor?.name ?? err.name;
  const status = (err as { status?: unknown }).status;
  const provider = "The model provider";
  if (/Timeout/i.test(name))
    return new AppError("upstream_timeout", `${provider} did not answer in time.`, { cause: err });
  if (/Connection/i.test(name))
    return new AppError("upstream_unavailable", `${provider} could not be reached: ${err.message}`, { cause: err });
  if (typeof status === "number") {
    if (status === 503 || status === 529)
      return new AppError("upstream_unavailable", `${provider} is unavailable (HTTP ${status}).`, { cause: err });
    if (status === 401 || status === 403) {
      return new AppError(
        "upstream_error",
        `${provider} refused the credentials (HTTP ${status}); check the model node's credential.`,
        { cause: err },
      );
    }
    return new AppError("upstream_error", `${provider} answered HTTP ${status}: ${err.message.slice(0, 300)}`, {
      cause: err,
    });
  }
  return err;
}

/** The AppError an SDK wrapped (as `cause`, a few levels deep at most). */
function appErrorInside(err: Error): AppError | undefined {
  let cur: unknown = err.cause;
  for (let depth = 0; depth < 5 && cur; depth += 1) {
    if (cur instanceof AppError) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}
