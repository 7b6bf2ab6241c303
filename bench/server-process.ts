// A Switchyard server process for the prediction benches (bench/prediction.ts, bench/ab.ts): the
// production Next.js server (`server/start.mjs --no-build`, needs a build of `cwd`) or
// bench/serve-routes.ts (the same handlers on plain node:http, no build), on a fresh embedded
// database (PGlite in a temp DATA_DIR) or BENCH_DATABASE_URL, wired to a model stub and product API
// of the calling process. Set up over the API as its admin (Basic): the conversation and
// product-search example flows (public, so anonymous callers may run them) and a `predict` API key.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnReady, type RunningProcess } from "../dev/processes";
import { freePort } from "../dev/redis-server";
import { exampleFlow } from "../dev/flows";
import { request } from "./http-client";

export type ServerKind = "next" | "routes";
export const QUESTIONS = { conversation: "Hello there", agent: "find me a laptop under 1500 in Germany" };
export type Flow = keyof typeof QUESTIONS;
export type Variant = { key?: boolean; streaming?: boolean };
/** Sessions the requests rotate over (BENCH_SESSIONS, default 50): fewer make longer stored histories. */
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 50);
const CLK_TCK = 100; // Linux USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s

export interface BenchServer {
  kind: ServerKind;
  pid: number;
  url: string;
  process: RunningProcess;
  ids: Record<Flow, string>;
  apiKey: string;
  /** The admin's Authorization header (Basic), for benches that set up more over the API. */
  adminAuth: string;
  /** One prediction (200 expected, body read to its end). */
  predict(flow: Flow, i: number, v?: Variant): Promise<void>;
  /** CPU time (user + system, all threads) of the server process so far, in ms. */
  cpuMs(): number;
  /** Resident memory of the server's process(es), MB: now (VmRSS) or its high-water mark (VmHWM). */
  memMB(field: "VmRSS" | "VmHWM"): number;
  /**
   * Resets the high-water mark (VmHWM) of every server process to its current resident set (Linux:
   * `5` written to /proc/<pid>/clear_refs), so a later VmHWM is the peak since now. False when a
   * process refused it (not Linux, or /proc not writable): then VmHWM still counts from its start.
   */
  resetPeak(): boolean;
  /** SIGTERM (a --cpu-prof profile is written on exit), then removes the data dir. */
  stop(): Promise<void>;
}

export async function startBenchServer(opts: {
  kind: ServerKind;
  cwd: string;
  modelUrl: string;
  productApiUrl: string;
  nodeFlags?: string[];
  name?: string;
  /** Settings added to the server's environment (e.g. PGLITE_THREAD=false). */
  env?: Record<string, string>;
}): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-bench-"));
  const admin = { email: "bench@example.com", password: "bench-password-1" };
  const basic = `Basic ${Buffer.from(`${admin.email}:${admin.password}`).toString("base64")}`;
  const port = await freePort();
  let url = `http://127.0.0.1:${port}`;
  const env = {
    HOST: "127.0.0.1",
    PORT: String(port),
    NEXTAUTH_URL: url,
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.BENCH_DATABASE_URL,
    LOAD_EXAMPLE_FLOWS: "false",
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    OPENAI_API_KEY: "bench",
    OPENAI_BASE_URL: opts.modelUrl,
    OPENAI_MODEL: "stub-model",
    OUTBOUND_ALLOW_HOSTS: `${new URL(opts.modelUrl).host},${new URL(opts.productApiUrl).host}`,
    PUBLIC_RATE_LIMIT_MAX: "0", // the anonymous rows would hit the default per-IP limit
    MODE: "embedded",
    // BENCH_API_PROCESSES=2 runs the server as two API processes (they need Redis: BENCH_REDIS_URL).
    API_PROCESSES: process.env.BENCH_API_PROCESSES,
    REDIS_URL: process.env.BENCH_REDIS_URL,
    // server/run-node.sh runs it as `npm start` does (its malloc: jemalloc when the machine has it;
    // SWITCHYARD_MALLOC=system for glibc's), with this node.
    NODE_BINARY: process.execPath,
    ...opts.env,
  };
  const flags = opts.nodeFlags ?? [];
  const proc = await spawnReady({
    name: opts.name ?? `${opts.kind} server`,
    command: "sh",
    args: [
      "server/run-node.sh",
      ...flags,
      ...(opts.kind === "next" ? ["server/start.mjs", "--no-build"] : ["--import", "tsx", "bench/serve-routes.ts"]),
    ],
    env,
    cwd: opts.cwd,
    ready:
      opts.kind === "next"
        ? {
            poll: async () => {
              const res = await fetch(`${url}/api/v1/ping`, { signal: AbortSignal.timeout(2_000) });
              await res.body?.cancel();
              return res.ok;
            },
          }
        : {
            line: (line) => {
              const m = /^READY (\S+)/.exec(line);
              if (m) url = m[1];
              return !!m;
            },
          },
    timeoutMs: 180_000,
  });
  const pid = proc.child.pid!;

  async function api(pathname: string, body: unknown) {
    const res = await fetch(`${url}${pathname}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: basic },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${pathname}: HTTP ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  }
  const ids: Record<Flow, string> = {
    conversation: (
      await api("/api/v1/chatflows", {
        name: "conversation",
        graph: exampleFlow("conversation.json").graph,
        isPublic: true,
      })
    ).id as string,
    agent: (
      await api("/api/v1/chatflows", {
        name: "product-search agent",
        graph: exampleFlow("product-search-agent.json", { productApiUrl: opts.productApiUrl }).graph,
        isPublic: true,
      })
    ).id as string,
  };
  const apiKey = (await api("/api/v1/apikey", { name: "bench", permissions: ["predict"] })).key as string;

  return {
    kind: opts.kind,
    pid,
    url,
    process: proc,
    ids,
    apiKey,
    adminAuth: basic,
    async predict(flow, i, v = { key: true }) {
      const res = await request(`${url}/api/v1/prediction/${ids[flow]}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(v.key ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify({
          question: `${QUESTIONS[flow]} ${i % 7}`,
          overrideConfig: { sessionId: `bench-${flow}-${i % SESSIONS}` },
          ...(v.streaming ? { streaming: true } : {}),
        }),
      });
      const { text } = res;
      if (res.status !== 200) throw new Error(`${flow}: HTTP ${res.status} ${text.slice(0, 300)}`);
      if (v.streaming && !text.includes("event")) throw new Error(`${flow}: no SSE events in ${text.slice(0, 200)}`);
    },
    cpuMs() {
      return serverPids(pid).reduce((sum, p) => sum + processCpuMs(p), 0);
    },
    memMB(field) {
      return serverPids(pid).reduce((sum, p) => sum + processMemMB(p, field), 0);
    },
    resetPeak() {
      return serverPids(pid).every((p) => {
        try {
          fs.writeFileSync(`/proc/${p}/clear_refs`, "5");
          return true;
        } catch {
          return false;
        }
      });
    },
    async stop() {
      await proc.stop("SIGTERM");
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Predictions sent before anything is measured: BENCH_WARMUP of them (default 3000), 8 at a time,
 * mostly JSON conversation answers, with streamed (1 in 5), anonymous (1 in 7) and agent (1 in 10)
 * ones mixed in. A fresh server compiles its hot path with TurboFan on V8's background threads for
 * its first few thousand predictions: with the former warm-up (~130 predictions) those threads still
 * took ~1.0-1.5 ms of CPU per request and the main thread ~2.4-3.0 ms at c=8; after 3000, ~0.15 and
 * 1.6-2.8 ms (/proc per-thread CPU; see the commit that added this). A long-running server is in the
 * second state, and only there do two builds differ by their code rather than by how far each has
 * compiled it. Sessions also reach their full memory window (the conversation flow keeps 20 messages).
 */
export async function warmUp(s: BenchServer, n = Number(process.env.BENCH_WARMUP ?? 3000)): Promise<void> {
  await Promise.all(
    Array.from({ length: 8 }, async (_, w) => {
      for (let i = w; i < n; i += 8) {
        await s.predict("conversation", i);
        // i / k: each kind's predictions spread over all the sessions, as the measured ones are.
        if (i % 5 === 0) await s.predict("conversation", i / 5, { key: true, streaming: true });
        if (i % 7 === 0) await s.predict("conversation", i / 7, { key: false });
        if (i % 10 === 0) await s.predict("agent", i / 10);
      }
    }),
  );
}

/**
 * The server's process and, with API_PROCESSES > 1, its API processes (children of the primary):
 * CPU and memory figures add them up. A child that has exited is not counted.
 */
function serverPids(pid: number): number[] {
  let children: number[] = [];
  try {
    children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {}
  return [pid, ...children];
}

/** CPU time (user + system, all threads) of one process so far, in ms; 0 once it is gone. */
function processCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK; // utime + stime
  } catch {
    return 0;
  }
}

function processMemMB(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export const loadavg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

export const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
