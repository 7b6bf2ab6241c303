// @ts-check
// `npm start`: builds the app when the build is missing or older than the sources, then serves it
// on HOST:PORT (default 127.0.0.1:3000). Migrations and example flows are handled at server start
// (instrumentation.ts). A small custom server records the socket's address for rate limits.
import { spawnSync } from "node:child_process";
import cluster from "node:cluster";
import fs from "node:fs";
import path from "node:path";
import next from "next";
import { gracefulShutdown, graceFromEnv } from "./graceful.mjs";
import { createAppServer } from "./request-guard.mjs";
import { bodyGuardSettings } from "./body-guard.mjs";
import { loadFastRoutes } from "./fast-routes.mjs";
import { embeddedDataDir, startEmbeddedDatabase } from "./pglite-wire.mjs";
import { collectWhenIdle } from "./idle-gc.mjs";
import { heapGrowingPercent, limitHeapGrowth } from "./heap-growth.mjs";
import { clusterProblem, runPrimary, SHUTDOWN } from "./api-cluster.mjs";

const root = path.resolve(import.meta.dirname, "..");
const host = process.env.HOST || "127.0.0.1";
const port = Number(process.env.PORT || 3000);
process.env.NEXTAUTH_URL ||= `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
/** @type {Record<string, string | undefined>} */ (process.env).NODE_ENV = "production";
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

const SOURCES = [
  "app",
  "components",
  "lib",
  "public",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.mjs",
  "package-lock.json",
  "prisma/schema.prisma",
];

/**
 * @param {string} p
 * @returns {number}
 */
function newestMtime(p) {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return 0;
  const st = fs.statSync(full);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const e of fs.readdirSync(full, { withFileTypes: true })) {
    if (e.name === "generated" || e.name === "node_modules" || e.name.endsWith(".test.ts")) continue;
    max = Math.max(max, newestMtime(path.join(p, e.name)));
  }
  return max;
}

function buildIfStale() {
  const buildId = path.join(root, ".next", "BUILD_ID");
  const built = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  if (built && Math.max(...SOURCES.map(newestMtime)) <= built) return;
  console.log(
    built ? "Sources changed since the last build: rebuilding…" : "No build yet: building the app (about a minute)…",
  );
  const res = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
  });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

// The old generation grows by at most HEAP_GROWING_PERCENT (default 100) past what survived a full
// collection, in every thread of this process (server/heap-growth.mjs). Checked, with the request
// timeouts, before a build, which can take minutes, so a bad value is refused at once.
let bodies;
try {
  limitHeapGrowth(heapGrowingPercent(process.env.HEAP_GROWING_PERCENT));
  // Header and body timeouts, the cap on bodies arriving without credentials (server/body-guard.mjs).
  bodies = bodyGuardSettings(process.env);
} catch (err) {
  console.error(`[switchyard] cannot start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

if (!process.argv.includes("--no-build") && cluster.isPrimary) buildIfStale();

// The embedded database (DATABASE_URL unset or pglite:…) runs on a thread of its own and the app
// reaches it over a private Unix socket, so its work leaves the event loop (PGLITE_THREAD=false keeps
// it in-process, as `npm run dev` and the tests do).
const embedded = embeddedDataDir(process.env.DATABASE_URL, process.env.DATA_DIR);
const database =
  embedded !== undefined && process.env.PGLITE_THREAD !== "false" && !process.env.PGLITE_SOCKET
    ? await startEmbeddedDatabase({
        dataDir: embedded,
        // Without its database the server can only fail requests: exit, so a supervisor restarts it.
        onLost: (/** @type {string} */ reason) => {
          console.error(`[switchyard] stopping: ${reason}`);
          process.exit(1);
        },
      }).catch((err) => {
        console.error(`[switchyard] cannot start: ${err.message}`);
        process.exit(1);
      })
    : null;
if (database) process.env.PGLITE_SOCKET = database.socketDir;

// API_PROCESSES=N (N > 1): this process only forks N API processes and owns the database thread
// (server/api-cluster.mjs); each of them runs the rest of this file.
const processes = Number(process.env.API_PROCESSES || 1);
if (cluster.isPrimary) {
  const problem = clusterProblem({
    processes,
    redisUrl: process.env.REDIS_URL,
    embedded: embedded !== undefined,
    thread: process.env.PGLITE_THREAD !== "false",
  });
  if (problem) {
    console.error(`[switchyard] cannot start: ${problem}`);
    await database?.close();
    process.exit(1);
  }
  if (processes > 1) {
    const code = await runPrimary({ processes });
    await database?.close();
    process.exit(code);
  }
}

const app = next({ dev: false, dir: root, hostname: host, port });
const handle = app.getRequestHandler();
await app.prepare();

// The prediction route is served past Next's router (server/fast-routes.mjs); everything else by Next.
// It borrows Next's internals, so start-up says which path serves predictions, and why not the fast
// one; at exit, how many it served (e2e/fast-route.spec.ts reads both).
const { fast, reason } = await loadFastRoutes(root);
if (fast) {
  console.log("predictions: served past Next (fast route)");
  process.once("exit", () => console.log(`predictions: ${fast.served} served past Next (fast route)`));
} else console.error(`[switchyard] predictions: served by Next — fast route unavailable: ${reason}`);
const server = createAppServer(handle, fast, { bodies });
// A full garbage collection once no request has been open for 10 s (server/idle-gc.mjs), and 10 s
// after start if none came: what start-up and the last burst of requests left in the heap goes back
// instead of staying resident until the next load (bench/measured.md, "Idle collection").
let open = 0;
const idleGc = collectWhenIdle(() => open === 0);
server.on("request", (_req, res) => {
  open++;
  res.once("close", () => {
    open--;
    idleGc();
  });
});
// SIGTERM/SIGINT: stop accepting, finish open requests and SSE streams (SHUTDOWN_GRACE_MS), exit 0;
// a second signal exits at once.
const shutdown = gracefulShutdown(server, {
  graceMs: graceFromEnv(process.env.SHUTDOWN_GRACE_MS),
  exit: (code) => void (database?.close() ?? Promise.resolve()).finally(() => process.exit(code)),
});
// An API process of a cluster stops when its primary says so (unless a signal already started it).
process.on("message", (m) => {
  if (m === SHUTDOWN && !shutdown.stopping()) shutdown.onSignal("SIGTERM");
});
server.listen(port, host, () => {
  console.log(`Switchyard is running at http://${host.includes(":") ? `[${host}]` : host}:${port}`);
  idleGc(); // start-up is work too
});
