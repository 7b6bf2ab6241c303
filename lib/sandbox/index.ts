import { AppError, type ErrorCode } from "@/common/errors";
import { getEnv } from "../env";
import { processState } from "../state/registry";
import { SandboxPool } from "./pool";
import type { SandboxFailure, SandboxLimits, SandboxOutcome, SandboxRequest } from "./types";

export { sandboxFetchOver } from "./fetch";
export type * from "./types";

/** All console lines of one run together; later lines are dropped (not a setting: logs are for debugging). */
export const SANDBOX_CONSOLE_BYTES = 64 * 1024;

/** A variable name becomes the parameter `$<name>`, so it must be an identifier. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The limits of a run from the settings (SANDBOX_*). */
export function sandboxLimits(): SandboxLimits {
  const env = getEnv();
  return {
    timeoutMs: env.SANDBOX_TIMEOUT_MS,
    memoryMb: env.SANDBOX_MEMORY_MB,
    maxResultBytes: env.SANDBOX_MAX_RESULT_BYTES,
    maxConsoleBytes: SANDBOX_CONSOLE_BYTES,
  };
}

/** The process's sandbox: SANDBOX_WORKERS worker threads, started on first use. */
export const sandboxPool = () =>
  processState("sandboxPool", () => new SandboxPool({ workers: getEnv().SANDBOX_WORKERS }));

/**
 * Runs user code (a Flowise-style async function body using `$input`, `$flow`, `$vars` and the
 * named variables) in a QuickJS sandbox on a worker thread, within the settings' limits or
 * `request.limits`. Resolves with `{ ok: true, value }` or `{ ok: false, error }` (a typed failure
 * naming the limit or the line), plus the console lines; it never rejects for anything the code
 * does. It throws only for a caller's mistake: a variable name that is not an identifier, or a
 * variable value that is not JSON.
 */
export function runInSandbox(request: SandboxRequest): Promise<SandboxOutcome> {
  const variables = request.variables ?? {};
  const variableNames = Object.keys(variables);
  for (const name of variableNames) {
    if (!VARIABLE_NAME.test(name)) throw new TypeError(`Sandbox variable "${name}" is not an identifier`);
  }
  const variablesJson = JSON.stringify(variables);
  const limits = { ...sandboxLimits(), ...request.limits };
  const fetch = request.fetch !== undefined;
  return sandboxPool().run({ code: request.code, variableNames, variablesJson, limits, fetch }, request.fetch);
}

/** The AppError code of each failure kind (all 422: the flow's code failed, not the request). */
export const SANDBOX_ERROR_CODES = {
  timeout: "sandbox_timeout",
  memory: "sandbox_memory",
  error: "sandbox_error",
  bad_result: "sandbox_bad_result",
} as const satisfies Record<SandboxFailure["kind"], ErrorCode>;

/**
 * The AppError of a failed run, its message prefixed with what ran (e.g. `Custom Function
 * "customFunctionAgentflow_0"`); the failure itself is in `details`.
 */
export function sandboxAppError(failure: SandboxFailure, subject: string): AppError {
  return new AppError(SANDBOX_ERROR_CODES[failure.kind], `${subject}: ${failure.message}`, { details: failure });
}
