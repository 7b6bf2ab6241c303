import os from "node:os";
import { z } from "zod";
import { isAcceptablePassword, PASSWORD_RULE } from "@/common/schemas/user";

const MiB = 1024 * 1024;

/** Every setting the server reads, validated once. See docs/configuration.md. */
const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^(pglite:.*|postgres(ql)?:\/\/.+)$/, "must be pglite:<dir>, pglite:memory:// or postgresql://…")
    .optional(),
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATA_DIR: z.string().default("./data"),
  /**
   * Set by `npm start` (server/start.mjs), not by hand: the directory of the Unix socket where the
   * embedded database is served from its own thread (server/pglite-wire.mjs). With it, the app
   * reaches PGlite through `pg` instead of opening it on its event loop.
   */
  PGLITE_SOCKET: z.string().optional(),
  /**
   * The embedded database's buffer cache (PostgreSQL's shared_buffers; its default is 128MB). It is
   * WebAssembly memory PGlite touches whole and never gives back, so a small one keeps the server's
   * resident memory down; the operating system's page cache still holds the data files. Read by
   * server/pglite-wire.mjs too (the thread of `npm start`).
   */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, "must be a size such as 16MB or 512kB")
    .default("16MB"),
  /** The studio's public origin; also what cookie-authenticated writes must come from (the HTTP layer's same-origin.ts). */
  NEXTAUTH_URL: z.url("must be the studio's URL, e.g. http://127.0.0.1:3000").optional(),
  NEXTAUTH_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  /** Key for credentials at rest: 32 bytes as 64 hex chars or base64. Derived from the data dir secret when unset. */
  SECRETS_KEY: z.string().optional(),
  ADMIN_EMAIL: z.email("must be an e-mail address").optional(),
  ADMIN_PASSWORD: z.string().refine(isAcceptablePassword, PASSWORD_RULE).optional(),
  ADMIN_NAME: z.string().default("Admin"),
  LOAD_EXAMPLE_FLOWS: z.enum(["true", "false"]).default("true"),
  TRUST_PROXY: z.enum(["true", "false"]).default("false"),
  API_DOCS_PUBLIC: z.enum(["true", "false"]).default("true"),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url("must be a URL").optional(),
  OPENAI_MODEL: z.string().default("gpt-4o-mini"),
  OPENAI_EMBEDDING_MODEL: z.string().default("text-embedding-3-small"),
  /** Largest single upload (image or audio) in a prediction, in bytes. */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  /** Most uploads in one prediction. */
  UPLOAD_MAX_FILES: z.coerce.number().int().min(1).max(20).default(5),
  /** Largest single file of a vector upsert, in bytes. */
  UPSERT_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(20 * 1024 * 1024),
  /** Most files in one vector upsert. */
  UPSERT_MAX_FILES: z.coerce.number().int().min(1).max(100).default(10),
  /** Most bytes a DOCX (a zip) may inflate to, all parts together; checked before and during inflation. */
  UPSERT_MAX_INFLATED_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(50 * MiB),
  /** Most pages of one PDF. */
  UPSERT_MAX_PDF_PAGES: z.coerce.number().int().min(1).default(2000),
  /** Most text extracted from one file, in UTF-8 bytes. */
  UPSERT_MAX_TEXT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(50 * MiB),
  /** Time limit of one file's parsing; the worker is stopped past it. */
  PARSE_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /** Heap limit of each parse worker process, in MiB. */
  PARSE_MAX_MEMORY_MB: z.coerce.number().int().min(64).default(512),
  /** Parse worker processes running at once (further files wait for one). */
  PARSE_WORKERS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(Math.max(1, Math.min(4, os.availableParallelism()))),
  /** Let flows reach every private/loopback address (development only). */
  OUTBOUND_ALLOW_PRIVATE: z.enum(["true", "false"]).default("false"),
  /**
   * Private/loopback hosts flows may reach, as "host" or "host:port", comma-separated (e.g. a local
   * model server or an internal API). The hosts of the server's own *_BASE_URL settings are added.
   */
  OUTBOUND_ALLOW_HOSTS: z
    .string()
    .default("")
    .transform((s) =>
      s
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(
      z.array(z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/, "each entry must be host or host:port")),
    ),
  /** Deadline of every model call (chat, embeddings, speech-to-text), in ms; past it the run answers 504. */
  MODEL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /**
   * Memory (MB) for the session histories a memory node reads, kept per process where it is the
   * database's only writer (lib/services/session-history.ts); 0 reads every history from the database.
   */
  SESSION_HISTORY_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(16),
  /** Anonymous predictions per client IP per public chatflow without its own limit (0: no default limit). */
  PUBLIC_RATE_LIMIT_MAX: z.coerce.number().int().min(0).default(60),
  /** The window of PUBLIC_RATE_LIMIT_MAX, in seconds. */
  PUBLIC_RATE_LIMIT_WINDOW_SEC: z.coerce.number().int().min(1).max(86_400).default(60),
  /** Redis shared by several server processes (state events, rate limits); unset: one process, all in memory. */
  REDIS_URL: z
    .url({
      protocol: /^rediss?$/,
      hostname: /./,
      error: "must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379",
    })
    .optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /**
   * `embedded`: one process runs everything (PGlite or PostgreSQL). `queue`: API processes hand
   * predictions, upserts and domain analyses to workers (`npm run worker`) through Redis (BullMQ);
   * needs DATABASE_URL=postgresql://… and REDIS_URL.
   */
  MODE: z.enum(["embedded", "queue"], { error: 'must be "embedded" or "queue"' }).default("embedded"),
  /** Jobs one worker process runs at once (queue mode). */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
  /** Longest an API process waits for a job's result (queue mode); past it the request answers 504 job_timeout. */
  JOB_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(180_000),
  /**
   * How long an agentflow run waiting at Human Input may wait for its answer, in hours (fractions
   * allowed); past it the run is expired and a resume answers 409.
   */
  AGENTFLOW_PAUSED_RUN_TTL_HOURS: z.coerce.number().positive().max(87_600).default(168),
  /**
   * The lease of a running agentflow run, in seconds: the process running it renews it every third
   * of it, and another process takes over a run whose lease ran out (its process died).
   */
  AGENTFLOW_RUN_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * How many times an agentflow run may be taken over after its process died (embedded sweep, a queue
   * job's retry or the workers' sweep); a run whose lease runs out once more is marked error naming this
   * cap instead of being taken over again (a run that crashes every process running it). 0: never.
   */
  AGENTFLOW_MAX_TAKEOVERS: z.coerce.number().int().min(0).max(100).default(3),
  /**
   * On SIGTERM/SIGINT `npm start` stops accepting and lets open requests and SSE streams finish for
   * at most this long (ms) before exiting (server/graceful.mjs reads it; same default there).
   */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  /**
   * `npm start`'s server (server/body-guard.mjs reads these; same defaults and ranges there): time to
   * receive a request's headers, and the whole request, before 408; a body that sends nothing for
   * BODY_IDLE_TIMEOUT_MS while a route waits for it is 408; at most MAX_PENDING_ANONYMOUS_BODIES bodies
   * from callers without credentials arrive at once (past it 503 `server_busy`).
   */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(20_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(300_000),
  BODY_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  /** Longest a route waits for a whole JSON body, however slowly it trickles in (uploads: REQUEST_TIMEOUT_MS); past it 408. */
  BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  MAX_PENDING_ANONYMOUS_BODIES: z.coerce.number().int().min(1).max(100_000).default(32),
  /**
   * How long a worker's lock on a running job lasts before it counts as lost (queue mode): a worker that
   * dies mid-job has its job retried (once) on another worker after about this long. Renewed every half of it.
   */
  JOB_LOCK_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
  /** Wall time of one run of user code (Custom Function, Custom Tool), its fetches included; past it 422 sandbox_timeout. */
  SANDBOX_TIMEOUT_MS: z.coerce.number().int().min(10).max(600_000).default(10_000),
  /** Memory of one run of user code, in MB (on top of the engine's own 16 MiB); past it 422 sandbox_memory. */
  SANDBOX_MEMORY_MB: z.coerce.number().int().min(8).max(1024).default(64),
  /** Largest value user code may return, as JSON in UTF-8 bytes; past it 422 sandbox_bad_result. */
  SANDBOX_MAX_RESULT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * MiB)
    .default(MiB),
  /**
   * Environment variables a global variable of type `runtime` may read (comma-separated names). Any
   * other name is refused: variables never expose the server's environment beyond this list.
   */
  VARIABLES_FROM_ENV: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must list environment variable names"))),
  /**
   * Traces (docs/operations.md, "Traces"), OpenTelemetry's standard names: spans are exported over
   * OTLP/HTTP when either endpoint is set (the general one gets `/v1/traces` appended), and nothing
   * is loaded or recorded when neither is. OTEL_EXPORTER_OTLP_HEADERS and _TIMEOUT are read by the exporter.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url("must be a URL such as http://127.0.0.1:4318").optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url("must be a URL such as http://127.0.0.1:4318/v1/traces").optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .enum(["http/protobuf", "http/json"], { error: "must be http/protobuf or http/json (gRPC is not supported)" })
    .default("http/protobuf"),
  /** The `service.name` of every span. */
  OTEL_SERVICE_NAME: z.string().min(1).default("switchyard"),
  /** Runs of user code at once, each on its own worker thread; further runs wait for one. */
  SANDBOX_WORKERS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(Math.max(1, Math.min(4, os.availableParallelism()))),
});

/** Settings that only make sense together; each problem is one line naming the variable to set. */
const envChecks = envSchema.superRefine((env, ctx) => {
  if (env.MODE !== "queue") return;
  if (!env.REDIS_URL)
    ctx.addIssue({
      code: "custom",
      path: ["REDIS_URL"],
      message: "MODE=queue needs REDIS_URL (e.g. redis://127.0.0.1:6379): jobs and events go through Redis",
    });
  if (!env.DATABASE_URL?.startsWith("postgres"))
    ctx.addIssue({
      code: "custom",
      path: ["DATABASE_URL"],
      message:
        "MODE=queue needs DATABASE_URL=postgresql://…: the embedded PGlite database belongs to one process, and workers share the data",
    });
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/** Parses process.env once; a wrong setting stops the server with one line per problem. */
export function getEnv(): Env {
  if (cached) return cached;
  const parsed = envChecks.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  cached = parsed.data;
  return cached;
}

/** Tests change process.env between suites; this forgets the parsed copy. */
export function resetEnvForTests(): void {
  cached = undefined;
}
