/**
 * The structured log of every server process: one JSON object per line on stdout (pino), with
 * `{level, time, service:"switchyard", role:"api"|"worker", pid, msg, …}`. The level is LOG_LEVEL
 * (debug | info | warn | error, default info). Secrets never reach it: authorization headers,
 * cookies, passwords, API keys and credential data are replaced with "[redacted]" wherever they
 * sit in the logged object (up to three levels deep).
 *
 * - `log`: the process's logger.
 * - `childLogger({ requestId, jobId, … })`: a logger whose lines all carry those fields. The HTTP
 *   layer (lib/http/route.ts) hands each handler `ctx.log` bound to the request id; a job
 *   carrying `requestId` in its data is logged by the worker with
 *   `childLogger({ requestId: job.data.requestId, jobId: job.id })`, so one grep of the id finds
 *   the API process's lines and the worker's.
 * - `setLogRole("worker")`: called once by the worker script before it logs anything else.
 *
 * Inside a vitest worker the logger is silent unless SWITCHYARD_TEST_LOGS=1 (thousands of
 * requests per file); processes spawned by tests are not vitest workers and log as usual.
 */
import pino, { type DestinationStream, type Logger } from "pino";
import { processState } from "./state/registry";

export type { Logger } from "pino";
export type LogRole = "api" | "worker";

const LEVELS = new Set(["debug", "info", "warn", "error", "silent"]);

/** Keys whose values are secrets, wherever they appear (compared without case: "Authorization", "X-Api-Key"). */
const SECRET_KEYS = new Set(
  [
    "authorization",
    "cookie",
    "set-cookie",
    "password",
    "passwordHash",
    "apiKey",
    "api_key",
    "x-api-key",
    "key",
    "keyHash",
    "token",
    "secret",
    "credential",
    "credentials",
    "encryptedData",
  ].map((k) => k.toLowerCase()),
);
/** Secrets are looked for in the logged object and three levels below it. */
const REDACT_DEPTH = 3;
const CENSOR = "[redacted]";

/**
 * `value` with every secret key's value replaced by "[redacted]", down to REDACT_DEPTH levels; the
 * same object when it holds none (the common case: a request line is a few flat fields), else a
 * copy (the caller's object is never changed). Errors are turned into pino's error shape first, so
 * their own fields (a client error's `config.headers`) are searched too.
 *
 * Our own walk instead of pino's `redact` paths: those are compiled per path, and the 68 of them
 * (each key at four depths, with wildcards) were most of a log line's cost; this walk costs a few key
 * lookups per flat line (bench/measured.md, "Log redaction").
 */
export function redactSecrets<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = depth < REDACT_DEPTH ? redactSecrets(value[i], depth + 1) : value[i];
      if (item !== value[i]) (copy ??= [...value])[i] = item;
    }
    return (copy ?? value) as T;
  }
  const isError = value instanceof Error;
  if (!isError && !isPlainRecord(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const current = (value as Record<string, unknown>)[key];
    let next: unknown = current;
    if (SECRET_KEYS.has(key.toLowerCase())) next = current === undefined ? current : CENSOR;
    else if (depth < REDACT_DEPTH) next = redactSecrets(current, depth + 1);
    if (next !== current)
      (copy ??= isError ? cloneError(value) : { ...(value as Record<string, unknown>) })[key] = next;
  }
  return (copy ?? value) as T;
}

/** An object literal or null-prototype object (not a Date, Buffer, Map, class instance…). */
function isPlainRecord(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A copy of an error that is still an error of its class (message, stack and cause included), for pino's serializer. */
function cloneError(err: Error): Record<string, unknown> {
  return Object.create(Object.getPrototypeOf(err), Object.getOwnPropertyDescriptors(err));
}

function levelFromEnv(): pino.LevelWithSilent {
  const inVitest = (globalThis as { __vitest_worker__?: unknown }).__vitest_worker__ !== undefined;
  if (inVitest && process.env.SWITCHYARD_TEST_LOGS !== "1") return "silent";
  const wanted = process.env.LOG_LEVEL ?? "info";
  return (LEVELS.has(wanted) ? wanted : "info") as pino.LevelWithSilent;
}

/** A logger with our fields and redaction; tests pass their own destination and level. */
export function createLogger(
  opts: {
    level?: pino.LevelWithSilent;
    role?: LogRole;
    destination?: DestinationStream;
    /** Fields of the moment each line adds (the trace and span ids while tracing: setLogTraceIds). */
    mixin?: () => object;
  } = {},
): Logger {
  const logger = pino(
    {
      level: opts.level ?? levelFromEnv(),
      // While tracing, every logger made (the root, a test's own) adds the trace and span ids.
      ...((opts.mixin ?? holder.mixin) ? { mixin: opts.mixin ?? holder.mixin } : {}),
      base: { service: "switchyard", role: opts.role ?? "api", pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (object) => redactSecrets(object),
      },
      serializers: { err: pino.stdSerializers.err },
    },
    opts.destination ?? pino.destination({ dest: 1, sync: true }),
  );
  // A child's bindings are written on every line it logs: they are searched for secrets once, when
  // it is made (children inherit this, so grandchildren too).
  const child = logger.child;
  logger.child = function (this: Logger, bindings, options) {
    return child.call(this, redactSecrets(bindings), options);
  } as Logger["child"];
  return logger;
}

// One per process ("log" in lib/state/catalogue.ts), shared across Next's dev reloads (and its role).
const holder = processState("log", () => ({}) as { __switchyardLog?: Logger; role?: LogRole; mixin?: () => object });

/** The process's logger. */
export function rootLogger(): Logger {
  holder.__switchyardLog ??= createLogger({ role: holder.role });
  return holder.__switchyardLog;
}

/** The process's logger (a proxy: a later setLogRole reaches modules that imported it early). */
export const log: Logger = new Proxy({} as Logger, {
  get(_target, prop) {
    const root = rootLogger();
    const value = Reflect.get(root, prop, root);
    return typeof value === "function" ? value.bind(root) : value;
  },
});

/** Marks every later line of this process with `role` ("worker" in `npm run worker`). */
export function setLogRole(role: LogRole): void {
  // A new root (pino would repeat the key if bound again); loggers made before keep their role.
  holder.role = role;
  holder.__switchyardLog = createLogger({ role });
}

/**
 * While tracing (lib/telemetry/start.ts), every later line logged inside a span carries its
 * `traceId` and `spanId`; `undefined` stops that. Without tracing no mixin is set: a line costs nothing more.
 */
export function setLogTraceIds(current: (() => { traceId: string; spanId: string } | undefined) | undefined): void {
  holder.mixin = current ? () => current() ?? {} : undefined;
  holder.__switchyardLog = createLogger({ role: holder.role });
}

/** Replaces the process's logger (tests capture lines with createLogger({ destination })); returns the undo. */
export function replaceRootLogger(logger: Logger): () => void {
  const before = holder.__switchyardLog;
  holder.__switchyardLog = logger;
  return () => {
    holder.__switchyardLog = before;
  };
}

/** A logger whose lines carry `bindings` (e.g. `{ requestId, jobId }`). */
export function childLogger(bindings: Record<string, unknown>): Logger {
  return rootLogger().child(bindings);
}

/**
 * The logger of one queued job: its lines carry the job id and, when the API process put it in the
 * job's data, the request id of the request that queued it (the worker calls this per job).
 */
export function jobLogger(job: { id?: string | number | null; name?: string; data?: unknown }): Logger {
  const requestId = (job.data as { requestId?: unknown } | null | undefined)?.requestId;
  return childLogger({
    jobId: job.id == null ? undefined : String(job.id),
    ...(job.name ? { job: job.name } : {}),
    ...(typeof requestId === "string" ? { requestId } : {}),
  });
}

/** An error's message for a log line or a one-line report (a refused connection may carry only a code). */
export function errorText(err: unknown): string {
  const e = err as { message?: string; code?: string } | null;
  return (err instanceof Error && e?.message) || e?.code || String(err);
}
