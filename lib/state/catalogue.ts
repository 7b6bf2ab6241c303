import type { CacheBounds } from "./cache";

/**
 * Every piece of state a server process keeps between requests, in one list: where it lives, what
 * it holds, and how it is kept fresh. Everything here is per process; what must hold across
 * processes lives in the database. A new singleton gets an entry here and its slot from
 * `processState(name, create)` (registry.ts), never its own `globalThis` property.
 *
 * Caches are only caches: an event on the invalidation bus (bus.ts, events.ts) drops an entry the
 * moment a service changes what it was made from; the TTLs and size caps stay as the backstop
 * (and bound staleness in other processes until the bus crosses processes). Every cache is the one
 * cache of cache.ts, made with the `cache` bounds of its entry here.
 */
export const PROCESS_STATE = {
  bus: {
    home: "lib/state/index.ts",
    holds: "The invalidation bus of this process (subscribers of the caches below); relayed over Redis with REDIS_URL.",
    freshness: "-",
  },
  builtFlows: {
    home: "lib/services/flows.ts (FlowCache, lib/flow/cache.ts)",
    holds: "Built flows by chatflow id + version (+ request overrides). They hold decrypted credential values.",
    freshness:
      "chatflow.saved/deleted drop the chatflow's builds; credential.updated/deleted drop every build that resolved the " +
      "credential; user.roleChanged/deleted drop the builds of chatflows the user owns. Builds of several versions of a chatflow (published, draft) coexist. Backstop: the entry cap (LRU).",
    cache: { max: 200 },
  },
  chatflowRows: {
    home: "lib/services/chatflows.ts",
    holds: "Chatflow rows for the prediction path.",
    freshness: "chatflow.saved/deleted drop the row; user.deleted drops all (owners moved). Backstop: the TTL.",
    cache: { max: 10_000, ttlMs: 2_000 },
  },
  chatflowVersions: {
    home: "lib/services/chatflow-versions.ts",
    holds:
      "Stored chatflow versions (graph and run settings) by chatflow id + number, for runs of a published or pinned version.",
    freshness:
      "Versions never change: chatflow.deleted drops the chatflow's; state.resync drops all. Backstop: the TTL and entry cap.",
    cache: { max: 500, ttlMs: 10 * 60_000 },
  },
  sessionHistories: {
    home: "lib/services/session-history.ts",
    holds:
      "The newest stored messages of recently served chat sessions (memory reads), only where this process is the " +
      "database's one writer (embedded database, one API process, not queue mode); else nothing.",
    freshness:
      "Exchanges this process stores are appended (or drop the entry when they do not sort last); chatMessages.deleted " +
      "and chatflow.deleted drop the chatflow's sessions, state.resync drops all. Backstop: SESSION_HISTORY_CACHE_MB (LRU).",
    cache: { maxBytesFrom: "SESSION_HISTORY_CACHE_MB" },
  },
  apiKeys: {
    home: "lib/auth/key-cache.ts",
    holds: "API key rows with their owner's role by prefix, and misses.",
    freshness:
      "apiKey.created/revoked drop the prefix; user.roleChanged/deleted drop the user's keys. Backstop: the TTL.",
    cache: { max: 10_000, ttlMs: 5_000 },
  },
  variableValues: {
    home: "lib/services/variables.ts",
    holds: "The global variables' values as runs see them ($vars), read once for every agentflow run.",
    freshness: "variables.changed drops them; state.resync too. Backstop: the TTL.",
    cache: { max: 1, ttlMs: 5_000 },
  },
  modelPrices: {
    home: "lib/services/usage.ts",
    holds: "The model price table in force (built-in defaults under the admins' prices), read for every answer's cost.",
    freshness: "modelPrices.changed drops it; state.resync too. Backstop: the TTL.",
    cache: { max: 1, ttlMs: 5_000 },
  },
  rateLimits: {
    home: "lib/access/rate-limit.ts",
    holds: "Fixed-window counters of the rate limits (not a cache: nothing to invalidate).",
    freshness:
      "Windows expire. In process memory without REDIS_URL; in Redis with it (shared by all processes), with a " +
      "per-process memory limiter as insurance while Redis is down.",
  },
  redis: {
    home: "lib/redis/index.ts",
    holds: "The connections to REDIS_URL (one for commands, one subscribed to the state channel), when set.",
    freshness:
      "Reconnect by themselves; the subscriber's reconnect delivers state.resync (events may have been missed).",
  },
  jobQueues: {
    home: "lib/jobs/index.ts",
    holds: "The in-process job queues by job name (domain analysis, chatflow test runs).",
    freshness: "-. Jobs are lost with the process (see analysisRecovery).",
  },
  analysisRecovery: {
    home: "lib/services/domains-analysis.ts",
    holds: "The once-per-process marking of analyses an earlier process left queued or running.",
    freshness: "Runs once; forgotten when it fails so the next use retries.",
  },
  testRunRecovery: {
    home: "lib/services/chatflow-tests/runs.ts",
    holds: "The once-per-process closing of chatflow test runs an earlier process left queued or running.",
    freshness: "Runs once; forgotten when it fails so the next use retries.",
  },
  uploadLocks: {
    home: "lib/security/stored-files.ts",
    holds: "Per-chatflow locks serialising writes and removals of stored upload files.",
    freshness: "A lock is dropped when its last holder finishes. Per process only (see withUploadsLock).",
  },
  queue: {
    home: "lib/queue/client.ts",
    holds:
      "Queue mode (MODE=queue), API side: the BullMQ producers, the fail-fast command connection and the subscriber " +
      "connection relaying job events back to the request waiting for them.",
    freshness: "Reconnect by themselves; a missed event is covered by polling the job's state.",
  },
  queueWorker: {
    home: "lib/queue/worker.ts",
    holds: "Queue mode, worker side: the BullMQ workers of this process and the abort controllers of its running jobs.",
    freshness: "Reconnect by themselves (maxRetriesPerRequest null); closed on SIGTERM.",
  },
  log: {
    home: "lib/log.ts",
    holds: "The process's pino logger (its role: api or worker).",
    freshness: "-. setLogRole replaces it; replaceRootLogger (tests) swaps it.",
  },
  queueView: {
    home: "lib/services/queue-view.ts",
    holds: "BullMQ Queue handles (queue mode) the admin queue view reads counts and active jobs through.",
    freshness: "-. They share the process's Redis command connection and reconnect with it.",
  },
  queueWorkerOutage: {
    home: "lib/queue/worker.ts",
    holds:
      "Queue mode, worker side: whether this process reported a Redis outage (one line per outage, one when back).",
    freshness: "Cleared when any of its Redis connections is ready again.",
  },
  sandboxPool: {
    home: "lib/sandbox/index.ts (SandboxPool, lib/sandbox/pool.ts)",
    holds:
      "The worker threads that run user code in QuickJS (SANDBOX_WORKERS at most) and the runs waiting for one. " +
      "Each run gets a fresh QuickJS runtime; a worker keeps its QuickJS instance (a WebAssembly memory) for the next run.",
    freshness:
      "-. A worker idle for a minute is retired; one that dies or overruns its run's limit is replaced; an instance a run filled is renewed.",
  },
  tracing: {
    home: "lib/telemetry/traces.ts",
    holds:
      "Whether spans are recorded: the OpenTelemetry API and tracer start-up registered (OTLP endpoint set), else nothing.",
    freshness: "-. Set once at start (lib/telemetry/start.ts); tests turn it on and off.",
  },
  scheduleTimers: {
    home: "lib/services/schedule-runner.ts",
    holds:
      "Embedded mode: one timer per enabled schedule, until its next run (queue mode keeps none: BullMQ's job schedulers live in Redis).",
    freshness:
      "Re-armed by every schedule change in this process and after each tick; armed for all enabled schedules at start.",
  },
  tracingRuns: {
    home: "lib/telemetry/langchain.ts",
    holds: "While tracing: the open span of each LangChain run (chain, model call, tool) by its run id.",
    freshness: "-. An entry leaves when its run ends or fails.",
  },
  db: {
    home: "lib/db/client.ts",
    holds: "The database connection (PGlite allows one opener per data dir) and the migrations applied on connect.",
    freshness: "closeDb() forgets it; the next getDb() connects again.",
  },
} as const satisfies Record<
  string,
  { home: string; holds: string; freshness: string; global?: string; cache?: CacheBounds }
>;

export type ProcessStateName = keyof typeof PROCESS_STATE;
