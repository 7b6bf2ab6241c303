// `npm run bench:queue`: queue mode (issue 12) against real worker processes. Figures, never assertions.
// This process is the API (the real prediction route served over HTTP on 127.0.0.1, MODE=queue) and the
// client; it makes a throwaway PostgreSQL database on BENCH_PG_URL's server (dropped at the end), starts
// a private redis-server on a free port and the dev model stub, and spawns 1, then 2, then 4 worker
// processes (server/worker.ts) with a fixed WORKER_CONCURRENCY. It prints:
//   1. the queue hop: p50 at one client of the embedded mode (a child process, MODE=embedded, same
//      database, same Redis) against queue mode with 1 worker, instant model, requests interleaved;
//   2. network-bound: model stub answering after 100 ms (a timer), req/s, p50, p99, speed-up vs 1 worker;
//   3. CPU-bound: instant model, the same, which the machine's cores cap.
// `bench/queue.ts embedded` is the child of step 1 (not for direct use).
// BENCH_HOP_ONLY=1 stops after step 1. BENCH_HOP_TRACE=1 also prints where the hop's time goes (median per
// step of one prediction: API, Redis, worker), from timestamps bench/queue-trace.ts records in both processes.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import pg from "pg";
import { freePort, startRedisServer, stopRedisServer } from "../dev/redis-server";
import { QUEUE_PREFIX } from "../lib/queue/names";
import { trace } from "./queue-trace";

const root = path.resolve(import.meta.dirname, "..");
const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
};
/** Jobs per worker process at once (WORKER_CONCURRENCY of every spawned worker). */
// 2 keeps 4 workers' network-bound ceiling (80 req/s) near what 2 shared cores can serve; more only adds queueing.
const CONCURRENCY = num("BENCH_WORKER_CONCURRENCY", 2);
/** Seconds measured per throughput row (after a 1 s warm-up that is not counted). */
const SECONDS = num("BENCH_SECONDS", 4);
/** Sequential requests per mode for the queue hop. */
const HOP_REQUESTS = num("BENCH_HOP_REQUESTS", 300);
const MODEL_LATENCY_MS = 100;
const WORKER_COUNTS = [1, 2, 4];
const HOP_ONLY = process.env.BENCH_HOP_ONLY === "1";
const HOP_TRACE = process.env.BENCH_HOP_TRACE === "1";

type Routes = typeof import("../dev/route-server");

/** Serves the real prediction route of this process's mode on 127.0.0.1. */
async function servePrediction(serveRoutes: Routes["serveRoutes"]) {
  const prediction = await import("../app/api/v1/prediction/[id]/route");
  return serveRoutes([
    { method: "POST", pattern: /^\/api\/v1\/prediction\/(?<id>[^/]+)$/, handler: prediction.POST as never },
  ]);
}

if (process.argv[2] === "embedded") {
  // Child: the embedded-mode API process over the same database. Prints its URL, serves until killed.
  const { serveRoutes } = await import("../dev/route-server");
  const { getEnv } = await import("../lib/env");
  if (getEnv().MODE !== "embedded") throw new Error("the embedded child needs MODE=embedded");
  const server = await servePrediction(serveRoutes);
  console.log(`READY ${server.url}`);
  process.on("SIGTERM", () => process.exit(0));
} else {
  await main();
  process.exit(0);
}

async function main() {
  const pgServer = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const dbName = `switchyard_bench_queue_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-bench-queue-"));
  const children = new Set<ChildProcess>();
  const cleanups: (() => Promise<unknown>)[] = [];
  let redis: ChildProcess | undefined;
  let dbCreated = false;

  const killAll = () => {
    for (const c of children) {
      // Workers run in their own process group (detached): the signal reaches anything they started.
      try {
        if (c.pid) process.kill(-c.pid, "SIGKILL");
      } catch {
        c.kill("SIGKILL");
      }
    }
  };
  let cleaning: Promise<void> | undefined;
  /** Stops every child, the stub and servers, drops the database, stops redis-server (once, from finally or a signal). */
  const cleanup = () =>
    (cleaning ??= (async () => {
      killAll();
      for (const c of cleanups.reverse()) await c().catch(() => {});
      try {
        const { listProcessState } = await import("../lib/state/registry");
        const created = new Set(
          listProcessState()
            .filter((s) => s.created)
            .map((s) => s.name),
        );
        if (created.has("queue")) await (await import("../lib/queue")).closeQueueClient();
        if (created.has("redis")) {
          const { command, subscriber } = (await import("../lib/redis")).redisConnections(process.env.REDIS_URL!);
          command.disconnect();
          subscriber.disconnect();
        }
        await (await import("../lib/db/client")).closeDb();
      } catch {
        // best effort: the process exits below either way
      }
      if (dbCreated) {
        const c = new pg.Client({ connectionString: pgServer });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
        await c.end();
      }
      if (redis) await stopRedisServer(redis);
      fs.rmSync(dataDir, { recursive: true, force: true });
    })());
  const onSignal = () => {
    cleanup().finally(() => process.exit(130));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("uncaughtException", (err) => {
    console.error(err);
    cleanup().finally(() => process.exit(1));
  });

  try {
    const redisPort = await freePort();
    redis = await startRedisServer(redisPort);
    const admin = new pg.Client({ connectionString: pgServer });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${dbName}"`);
    dbCreated = true;
    await admin.end();
    const traceFile = path.join(dataDir, "hop-trace.txt");
    if (HOP_TRACE) {
      process.env.QUEUE_TRACE_FILE = traceFile;
      (await import("./queue-trace")).installQueueTrace();
    }
    const dbUrl = new URL(pgServer);
    dbUrl.pathname = `/${dbName}`;

    const { createModelStub } = await import("../dev/model-stub/server");
    const stub = await createModelStub();
    cleanups.push(() => stub.close());
    Object.assign(process.env, {
      MODE: "queue",
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      DATA_DIR: dataDir,
      LOAD_EXAMPLE_FLOWS: "false",
      LOG_LEVEL: "warn",
      WORKER_CONCURRENCY: String(CONCURRENCY),
      OPENAI_API_KEY: "bench",
      OPENAI_BASE_URL: stub.url,
      OPENAI_MODEL: "stub-model",
    });
    (await import("../lib/env")).resetEnvForTests();
    await (await import("../lib/db/migrate")).migrateDatabase();

    const { exampleFlow } = await import("../dev/flows");
    const { serveRoutes } = await import("../dev/route-server");
    const { createChatflow } = await import("../lib/services/chatflows");
    const { createApiKey } = await import("../lib/services/api-keys");
    const { systemCaller, fixtureKeyOwner } = await import("../dev/callers");
    const flowId = (
      await createChatflow(
        { name: "conversation", graph: exampleFlow("conversation.json").graph as never },
        systemCaller,
      )
    ).id;
    const { key } = await createApiKey(
      { name: "bench", permissions: ["predict"], chatflowIds: [] },
      await fixtureKeyOwner(),
    );
    const queueApi = await servePrediction(serveRoutes);
    cleanups.push(() => queueApi.close());

    const output = (child: ChildProcess) => {
      let out = "";
      child.stdout?.on("data", (d) => (out += d));
      child.stderr?.on("data", (d) => (out += d));
      return () => out;
    };
    const waitForLine = async (child: ChildProcess, out: () => string, re: RegExp, what: string) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const m = re.exec(out());
        if (m) return m;
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${what} did not start:\n${out()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const start = (args: string[], env: Record<string, string>) => {
      // Node with tsx's loader (not the tsx binary, which would run a second process).
      const child = spawn(process.execPath, ["--import", "tsx", ...args], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      children.add(child);
      child.once("exit", () => children.delete(child));
      return child;
    };

    const embedded = start(["bench/queue.ts", "embedded"], { MODE: "embedded" });
    const embeddedOut = output(embedded);
    const workers: ChildProcess[] = [];
    const listing = new Queue("predictions", {
      connection: { host: "127.0.0.1", port: redisPort },
      prefix: QUEUE_PREFIX,
    });
    cleanups.push(() => listing.close());
    const addWorkers = async (n: number) => {
      const started = Array.from({ length: n }, () => {
        const w = start(
          HOP_TRACE ? ["--import", "./bench/queue-trace.ts", "server/worker.ts"] : ["server/worker.ts"],
          {},
        );
        workers.push(w);
        return output(w);
      });
      // Workers log at LOG_LEVEL=warn (no per-job lines), so "worker ready" is not printed: wait until
      // Redis lists every worker of the predictions queue instead.
      const deadline = Date.now() + 60_000;
      while ((await listing.getWorkersCount()) < workers.length) {
        const dead = workers.findIndex((w) => w.exitCode !== null);
        if (dead >= 0 || Date.now() > deadline) throw new Error(`worker did not start:\n${started[0]()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const [, embeddedUrl] = await Promise.all([
      addWorkers(1),
      waitForLine(embedded, embeddedOut, /READY (\S+)/, "embedded API child").then((m) => m[1]),
    ]);

    // --- measuring ---
    let seq = 0;
    const ask = async (base: string) => {
      const i = seq++;
      const t = performance.now();
      const traced = HOP_TRACE && base === queueApi.url;
      if (traced) trace(`client-${i}`, "client.start");
      const res = await fetch(`${base}/api/v1/prediction/${flowId}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        // A new session per request: every prediction does the same work (no history growing).
        body: JSON.stringify({ question: `Hello there ${i}`, overrideConfig: { sessionId: `bench-${i}` } }),
      });
      const body = await res.text();
      if (traced) trace(`client-${i}`, "client.end");
      if (res.status !== 200) throw new Error(`HTTP ${res.status} from ${base}: ${body.slice(0, 300)}`);
      return performance.now() - t;
    };
    const pct = (xs: number[], p: number) =>
      [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
    /** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
    const cpuOf = (pid?: number) => {
      try {
        const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
        return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (100/s)
      } catch {
        return 0;
      }
    };
    const workersCpu = () => workers.reduce((s, w) => s + cpuOf(w.pid), 0);

    async function load(base: string, clients: number, seconds: number) {
      const times: number[] = [];
      let failed = 0;
      let firstError = "";
      const cpu0 = process.cpuUsage();
      const w0 = workersCpu();
      const r0 = cpuOf(redis?.pid);
      const t0 = performance.now();
      const until = t0 + seconds * 1000;
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (performance.now() < until) {
            try {
              times.push(await ask(base));
            } catch (err) {
              failed++;
              firstError ||= err instanceof Error ? err.message : String(err);
            }
          }
        }),
      );
      const wall = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      return {
        rps: times.length / wall,
        p50: pct(times, 50),
        p99: pct(times, 99),
        failed,
        firstError,
        apiCpu: (cpu.user + cpu.system) / 1e6 / wall,
        workerCpu: (workersCpu() - w0) / wall,
        redisCpu: (cpuOf(redis?.pid) - r0) / wall,
      };
    }

    /** Median time per step of a queued prediction, from the timestamps in the trace file. */
    const printTrace = async () => {
      fs.writeFileSync(traceFile, "");
      for (let i = 0; i < HOP_REQUESTS; i++) await ask(queueApi.url);
      await new Promise((r) => setTimeout(r, 200)); // the worker's last lines
      const lines = fs
        .readFileSync(traceFile, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split(" "))
        .map(([at, id, step]) => ({ at: Number(at), id, step }));
      const byId = new Map<string, Map<string, number>>();
      for (const l of lines) {
        if (!byId.has(l.id)) byId.set(l.id, new Map());
        const steps = byId.get(l.id)!;
        if (!steps.has(l.step)) steps.set(l.step, l.at);
      }
      const requests = [...byId.entries()].filter(([id]) => id.startsWith("client-"));
      const jobs = [...byId.entries()].filter(([id]) => !id.startsWith("client-"));
      const marks = [
        "client.start",
        "api.subscribe.start",
        "api.subscribe.end",
        "api.add.start",
        "api.add.end",
        "worker.picked",
        "worker.publish.attempt.call",
        "worker.publish.attempt.ack",
        "worker.publish.result.call",
        "api.received.result",
        "client.end",
      ];
      const names = [
        "HTTP in, auth, chatflow lookup",
        "SUBSCRIBE job channel",
        "(until the add starts)",
        "BullMQ add",
        "add done → worker picks it up",
        "worker: job start → attempt publish",
        "worker: attempt PUBLISH round trip",
        "processor (flow run, DB writes)",
        "result PUBLISH → API receives",
        "API → response at the client",
      ];
      const spans: number[][] = names.map(() => []);
      const totals: number[] = [];
      for (const [, r] of requests) {
        const s0 = r.get("client.start")!;
        const s1 = r.get("client.end")!;
        const job = jobs.find(([, j]) => (j.get("api.add.start") ?? 0) >= s0 && (j.get("api.add.start") ?? 0) <= s1);
        if (!job) continue;
        const at = (m: string) => (m.startsWith("client.") ? r.get(m) : job[1].get(m));
        let prev = s0;
        marks.slice(1).forEach((m, k) => {
          const t = at(m);
          if (t === undefined) return; // a step this version does not take
          spans[k].push(t - prev);
          prev = t;
        });
        totals.push(s1 - s0);
      }
      console.log(
        `   where a queued prediction's time goes (median of ${totals.length}, ms; steps this version skips are blank):`,
      );
      names.forEach((n, k) => {
        if (spans[k].length) console.log(`     ${n.padEnd(40)} ${pct(spans[k], 50).toFixed(3).padStart(8)}`);
      });
      console.log(`     ${"total (client round trip)".padEnd(40)} ${pct(totals, 50).toFixed(3).padStart(8)}\n`);
    };

    const began = performance.now();
    const cores = os.cpus().length;
    console.log(
      `Switchyard queue benchmark (${cores} CPUs, load average ${os.loadavg()[0].toFixed(1)}, Node ${process.version}, PostgreSQL, private redis-server)`,
    );
    console.log(
      `conversation flow, JSON predictions with an API key, a new session each (2 messages stored); WORKER_CONCURRENCY=${CONCURRENCY};\n` +
        `every process (client + API, workers, model stub in the API process, Redis, PostgreSQL) shares this machine: figures are noisy, compare runs on the same machine.\n`,
    );

    // 1. The queue hop at one client, instant model. Interleaved so drift hits both modes alike.
    stub.setLatency(0);
    for (let i = 0; i < 40; i++) {
      await ask(embeddedUrl);
      await ask(queueApi.url);
    }
    const hop = { embedded: [] as number[], queue: [] as number[] };
    for (let i = 0; i < HOP_REQUESTS; i++) {
      hop.embedded.push(await ask(embeddedUrl));
      hop.queue.push(await ask(queueApi.url));
    }
    const e50 = pct(hop.embedded, 50);
    const q50 = pct(hop.queue, 50);
    console.log(`1. Queue hop (instant model, 1 client, ${HOP_REQUESTS} requests each, interleaved; goal ≤ 3 ms)`);
    console.log(
      `   embedded (MODE=embedded)     p50 ${e50.toFixed(2)} ms   p99 ${pct(hop.embedded, 99).toFixed(2)} ms`,
    );
    console.log(`   queue (API + 1 worker)       p50 ${q50.toFixed(2)} ms   p99 ${pct(hop.queue, 99).toFixed(2)} ms`);
    console.log(`   added by the queue hop       p50 ${(q50 - e50).toFixed(2)} ms`);
    // What the hop is made of: Redis commands per prediction (from redis-server's own counters, so
    // the workers' idle blocking reads count too) and one Redis round trip on this machine right now.
    const probe = new Redis(redisPort, "127.0.0.1", { maxRetriesPerRequest: 1 });
    cleanups.push(async () => probe.disconnect());
    const commands = async () =>
      new Map(
        [...((await probe.info("commandstats")) as string).matchAll(/cmdstat_(\w+):calls=(\d+)/g)].map((m) => [
          m[1],
          Number(m[2]),
        ]),
      );
    let topCommands = "";
    const perPrediction = async (base: string, n = 50) => {
      const before = await commands();
      for (let i = 0; i < n; i++) await ask(base);
      const delta = [...(await commands())]
        .map(([name, calls]) => [name, (calls - (before.get(name) ?? 0) - (name === "info" ? 1 : 0)) / n] as const)
        .filter(([, per]) => per > 0)
        .sort((a, b) => b[1] - a[1]);
      topCommands = delta
        .slice(0, 6)
        .map(([name, per]) => `${name} ${per.toFixed(1)}`)
        .join(", ");
      return delta.reduce((sum, [, per]) => sum + per, 0);
    };
    const cmdEmbedded = await perPrediction(embeddedUrl);
    const cmdQueue = await perPrediction(queueApi.url);
    const pings: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      await probe.ping();
      pings.push(performance.now() - t);
    }
    console.log(
      `   Redis commands per prediction (those run inside BullMQ's Lua scripts included): embedded ${cmdEmbedded.toFixed(1)}, queue ${cmdQueue.toFixed(1)}\n` +
        `   one Redis round trip (PING) now: p50 ${pct(pings, 50).toFixed(2)} ms, p99 ${pct(pings, 99).toFixed(2)} ms\n` +
        `   most frequent in queue mode (per prediction): ${topCommands}\n`,
    );
    if (HOP_TRACE) await printTrace();
    if (HOP_ONLY) return;

    // 2 and 3: throughput per worker count. Workers are added, so 2 and 4 include the earlier ones.
    type Row = Awaited<ReturnType<typeof load>> & { workers: number; clients: number };
    const rows: { network: Row[]; cpu: Row[] } = { network: [], cpu: [] };
    for (const n of WORKER_COUNTS) {
      if (workers.length < n) await addWorkers(n - workers.length);
      const clients = 2 * n * CONCURRENCY;
      for (const kind of ["network", "cpu"] as const) {
        stub.setLatency(kind === "network" ? MODEL_LATENCY_MS : 0);
        await load(queueApi.url, clients, 1); // warm-up: new workers compile and connect
        rows[kind].push({ ...(await load(queueApi.url, clients, SECONDS)), workers: n, clients });
      }
    }
    // Reference: one embedded process (no queue) at the clients of the 2-worker row, instant model.
    stub.setLatency(0);
    await load(embeddedUrl, 2 * 2 * CONCURRENCY, 1);
    const child0 = cpuOf(embedded.pid);
    const embeddedCpu = await load(embeddedUrl, 2 * 2 * CONCURRENCY, SECONDS);
    const childCpu = (cpuOf(embedded.pid) - child0) / SECONDS;

    const table = (title: string, list: Row[]) => {
      console.log(title);
      console.log(
        "   workers  slots  clients     req/s  speed-up    p50 ms    p99 ms  CPU: API+client  workers  redis  CPU ms/req  failed",
      );
      for (const r of list) {
        const speedUp = r.rps / list[0].rps;
        console.log(
          `   ${String(r.workers).padStart(7)}  ${String(r.workers * CONCURRENCY).padStart(5)}  ${String(r.clients).padStart(7)}  ${r.rps.toFixed(1).padStart(8)}  ${`${speedUp.toFixed(2)}×`.padStart(8)}  ${r.p50.toFixed(1).padStart(8)}  ${r.p99.toFixed(1).padStart(8)}  ${`${(r.apiCpu * 100).toFixed(0)}%`.padStart(15)}  ${`${(r.workerCpu * 100).toFixed(0)}%`.padStart(7)}  ${`${(r.redisCpu * 100).toFixed(0)}%`.padStart(5)}  ${(((r.apiCpu + r.workerCpu + r.redisCpu) * 1000) / r.rps).toFixed(1).padStart(10)}  ${String(r.failed).padStart(6)}`,
        );
        if (r.firstError) console.log(`     first failure: ${r.firstError}`);
      }
    };
    const cap = (CONCURRENCY * 1000) / MODEL_LATENCY_MS;
    table(
      `2. Network-bound: model answers after ${MODEL_LATENCY_MS} ms (timer), clients = 2 × slots, ${SECONDS} s per row; ` +
        `ceiling ${cap} req/s per worker\n   (slots / 100 ms; less by the prediction's own time, see table 1) (goal speed-up ≥ 1.9× at 2, ≥ 3.5× at 4)`,
      rows.network,
    );
    console.log();
    table(`3. CPU-bound: instant model, clients = 2 × slots, ${SECONDS} s per row`, rows.cpu);
    console.log(
      `   reference, embedded (one process, no queue) at ${2 * 2 * CONCURRENCY} clients: ${embeddedCpu.rps.toFixed(1)} req/s, p50 ${embeddedCpu.p50.toFixed(1)} ms, p99 ${embeddedCpu.p99.toFixed(1)} ms, CPU: embedded API ${(childCpu * 100).toFixed(0)}%, client ${(embeddedCpu.apiCpu * 100).toFixed(0)}%`,
    );
    console.log(
      `   With an instant model every prediction is CPU work (HTTP, auth, LangChain, SQL, Redis), and this machine has ${cores} cores\n` +
        `   shared by the API, the workers, Redis and PostgreSQL: more workers cannot add throughput past the cores, they only\n` +
        "   compete for them (100% = one core busy). Real models are network-bound (table 2), where workers scale.",
    );
    console.log(
      `\nCPU columns: share of one core used by this process (API + client + stub), the workers, redis-server (PostgreSQL's\n` +
        `backends not counted); CPU ms/req is their sum per request. Load average now ${os.loadavg()[0].toFixed(1)}; ` +
        `measured in ${((performance.now() - began) / 1000).toFixed(0)} s.`,
    );
  } finally {
    await cleanup();
  }
  process.exit(0);
}
