/**
 * What goes into the sandbox and what comes out (lib/sandbox/index.ts runs it). Plain data only:
 * values cross into a worker thread and into a QuickJS heap as JSON, so no host object is ever
 * reachable from user code.
 */

/** A JSON value: what user code receives and what it may return. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** The limits of one run. Defaults come from the settings (SANDBOX_*, lib/env.ts). */
export interface SandboxLimits {
  /** Wall time of the whole run (awaited fetches included); past it: `timeout`. */
  timeoutMs: number;
  /** The QuickJS heap (every object, string and buffer of the run); past it: `memory`. */
  memoryMb: number;
  /** The returned value as JSON text, in UTF-8 bytes; past it: `bad_result`. */
  maxResultBytes: number;
  /** All console lines of the run together, in UTF-8 bytes; later lines are dropped (`truncated`). */
  maxConsoleBytes: number;
}

/** One request of the user code's `fetch`, handed to the caller's capability. */
export interface SandboxFetchRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** The answer the capability gives back; `body` is text (the capability caps its size). */
export interface SandboxFetchResponse {
  url: string;
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Network for user code, given by the caller (the outbound guard, bound to what the node may
 * reach). Without one, `fetch` does not exist inside the sandbox. It runs on the server's thread;
 * a rejection becomes a rejected `fetch` inside the sandbox, with the message only.
 */
export type SandboxFetch = (request: SandboxFetchRequest) => Promise<SandboxFetchResponse>;

export interface SandboxRequest {
  /**
   * The body of an async function (Flowise's Custom Function and Custom Tool code): it may
   * `await` and `return` a string or any JSON value.
   */
  code: string;
  /**
   * Values the code sees as `$<name>`: `{ input, flow, vars, city }` gives `$input`, `$flow`,
   * `$vars` and `$city`. Names must be identifiers; values JSON (copied, never shared).
   */
  variables?: Record<string, Json | undefined>;
  /** Overrides of the settings' limits for this run. */
  limits?: Partial<SandboxLimits>;
  fetch?: SandboxFetch;
}

export interface ConsoleLine {
  level: "log" | "info" | "warn" | "error" | "debug";
  text: string;
}

/** How a run failed. Each message names the limit or the line; callers map kinds to AppError codes. */
export type SandboxFailure =
  | { kind: "timeout"; message: string; limitMs: number }
  | { kind: "memory"; message: string; limitMb: number }
  | { kind: "error"; message: string; line?: number; column?: number }
  | { kind: "bad_result"; message: string };

export type SandboxOutcome = (
  | { ok: true; value: Json; error?: undefined }
  | { ok: false; error: SandboxFailure; value?: undefined }
) & {
  console: ConsoleLine[];
  /** Whether console lines were dropped past maxConsoleBytes. */
  consoleTruncated: boolean;
};

// The messages between the pool (server thread) and a worker (lib/sandbox/worker.mjs).

export interface RunMessage {
  type: "run";
  id: number;
  code: string;
  /** The variables' names (identifiers), in the order of the function's parameters. */
  variableNames: string[];
  /** The variables as one JSON object text, parsed inside QuickJS. */
  variablesJson: string;
  limits: SandboxLimits;
  /** Whether `fetch` exists inside the sandbox. */
  fetch: boolean;
}

export interface FetchAnswerMessage {
  type: "fetch-answer";
  id: number;
  callId: number;
  response?: SandboxFetchResponse;
  error?: string;
}

export type ToWorker = RunMessage | FetchAnswerMessage;

export type FromWorker =
  | { type: "ready" }
  | { type: "fetch"; id: number; callId: number; request: SandboxFetchRequest }
  /** `retire`: the engine itself failed; the pool replaces this worker. */
  | { type: "done"; id: number; outcome: SandboxOutcome; retire?: boolean };
