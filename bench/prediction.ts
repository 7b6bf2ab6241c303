// `npm run bench`: how much a prediction costs in Switchyard itself, against a real server process.
//
// The server is a separate process (the production Next.js server, `server/start.mjs --no-build`,
// when a build exists; else bench/serve-routes.ts, the same handlers on plain node:http;
// BENCH_SERVER=next|routes chooses) on the embedded default database (PGlite in DATA_DIR, a temp
// dir) or BENCH_DATABASE_URL. This process runs the scripted model stub, the demo product API and the
// clients. Every figure comes with its model-direct baseline from the same run: the exact calls the
// server made to the stub and the product API for one prediction (recorded), replayed directly by this
// process, interleaved with the predictions (c=1) or right after them (throughput). Overhead = the
// prediction minus that baseline. CPU per request is the server process's own CPU time (/proc, all its
// threads) over the requests it served; memory is its resident set (/proc). Figures, never asserted:
// on a shared machine compare runs made side by side, and read the load average printed with them.
//
// BENCH_SECONDS (default 5) sets each throughput row; BENCH_N (default 300) the c=1 samples;
// BENCH_WARMUP (default 3000) the predictions sent first, unmeasured (server-process.ts warmUp).
// BENCH_CPU_PROF=<file.cpuprofile> runs the server under `node --cpu-prof` and saves its profile, with
// <file>.windows.json giving each phase's time window (bench/profile-summary.ts reads both), and the
// embedded database thread's profile as <file without .cpuprofile>.thread.cpuprofile.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { hasBuild } from "../dev/processes";
import { createModelStub } from "../dev/model-stub/server";
import { createProductApi } from "../dev/product-api/server";
import { IDLE_GC_MS } from "../server/idle-gc.mjs";
import { request } from "./http-client";
import { type Flow, loadavg, pct, type ServerKind, startBenchServer, type Variant, warmUp } from "./server-process";

const root = path.resolve(import.meta.dirname, "..");
const kind = (process.env.BENCH_SERVER ?? (hasBuild() ? "next" : "routes")) as ServerKind;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const N = Number(process.env.BENCH_N ?? 300);
/** Idle time before "at rest" is read: 2 s past the server's idle collections (server/idle-gc.mjs). */
const REST_MS = IDLE_GC_MS + 2_000;
/** The second reading at rest. */
const LONG_REST_MS = 30_000;
const profileOut = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;
const profDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-cpuprof-"));

const stub = await createModelStub();
const productApi = await createProductApi();
const server = await startBenchServer({
  kind,
  cwd: root,
  modelUrl: stub.url,
  productApiUrl: productApi.url,
  nodeFlags: profileOut ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [],
});
/**
 * One measured prediction. The stubs record every request they get; a measured one's records are
 * dropped at once (only recordCalls reads them), so the heap of the process timing the predictions
 * does not grow through a phase.
 */
async function predict(...args: Parameters<typeof server.predict>) {
  await server.predict(...args);
  forgetRequests();
}
const cpuMs = () => server.cpuMs();
const memMB = (f: "VmRSS" | "VmHWM") => server.memMB(f);
/** Monotonic microseconds, the clock of V8's CPU profiles (both are CLOCK_MONOTONIC on Linux). */
const monoUs = () => Number(process.hrtime.bigint() / 1000n);
const windows: { name: string; startUs: number; endUs: number; requests: number }[] = [];

// ---- the model-direct baseline: one prediction's outbound calls, replayed ----
type Call = { url: string; init: { method: string; headers?: Record<string, string>; body?: string } };
async function recordCalls(flow: Flow): Promise<Call[]> {
  forgetRequests();
  await server.predict(flow, 1);
  const model = stub.requests.map((r) => ({
    url: `${stub.origin}${r.path}`,
    init: {
      method: r.method,
      headers: { "content-type": "application/json", authorization: r.authorization ?? "" },
      body: JSON.stringify(r.body),
    },
  }));
  const products = productApi.requests.map((r) => ({
    url: `${productApi.url}${r.url}`,
    init: { method: r.method },
  }));
  // The agent asks the model, calls the API, asks again: the order does not change the sum.
  return [...model, ...products];
}
async function replay(calls: Call[]) {
  for (const c of calls) await request(c.url, c.init);
  forgetRequests();
}

const ms = (x: number) => `${x.toFixed(2)} ms`;

function forgetRequests() {
  stub.requests.length = 0;
  productApi.requests.length = 0;
}

/** c=1, each prediction followed by the direct replay of its calls. */
async function sequential(flow: Flow, n: number, calls: Call[], v: Variant = { key: true }, label = "") {
  const server: number[] = [];
  const direct: number[] = [];
  const c0 = cpuMs();
  const startUs = monoUs();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await predict(flow, i, v);
    server.push(performance.now() - t0);
    const t1 = performance.now();
    await replay(calls);
    direct.push(performance.now() - t1);
  }
  windows.push({
    name: `c1-${flow}${v.key ? "" : "-anonymous"}${v.streaming ? "-stream" : ""}${label}`,
    startUs,
    endUs: monoUs(),
    requests: n,
  });
  // The whole loop: whatever the server still does after answering (logging, GC) is its cost too.
  return { server, direct, cpuPerReq: (cpuMs() - c0) / n };
}

/** c clients for SECONDS, then the direct replay at the same concurrency for as long. */
async function throughput(flow: Flow, c: number, calls: Call[], sampleMem = false) {
  const run = async (one: (i: number) => Promise<void>) => {
    let done = 0;
    const until = performance.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: c }, async (_, w) => {
        for (let i = w; performance.now() < until; i += c) {
          await one(i);
          done++;
        }
      }),
    );
    return { done, rate: done / ((performance.now() - started) / 1000) };
  };
  // The peak of this phase alone: the high-water mark is reset right before it (the process's VmHWM
  // would otherwise be its start-up's: initdb on the fresh data dir, migrations, warm-up), read right
  // after it. Where /proc refuses the reset, the resident set sampled every 50 ms stands in.
  let peak = 0;
  const exactPeak = sampleMem && server.resetPeak();
  const sampler = sampleMem ? setInterval(() => (peak = Math.max(peak, memMB("VmRSS"))), 50) : undefined;
  const c0 = cpuMs();
  const t0 = performance.now();
  const startUs = monoUs();
  const s = await run((i) => predict(flow, i));
  const wall = performance.now() - t0;
  const cpu = cpuMs() - c0;
  windows.push({ name: `c${c}-${flow}`, startUs, endUs: monoUs(), requests: s.done });
  if (sampler) clearInterval(sampler);
  const sampledPeak = Math.max(peak, sampleMem ? memMB("VmRSS") : 0);
  if (sampleMem) peak = exactPeak ? memMB("VmHWM") : sampledPeak;
  const d = await run(() => replay(calls));
  return { rate: s.rate, direct: d.rate, cpuPerReq: cpu / s.done, cores: cpu / wall, peak, exactPeak, sampledPeak };
}

/** Two variants of c=1 predictions in alternating blocks (same run, same load): p50 and CPU of each. */
async function interleaved(flow: Flow, a: Variant, b: Variant, names: [string, string], rounds = 8, block = 25) {
  const acc = { a: { t: [] as number[], cpu: 0 }, b: { t: [] as number[], cpu: 0 } };
  for (let r = 0; r < rounds; r++) {
    for (const [name, v] of (r % 2
      ? [
          ["b", b],
          ["a", a],
        ]
      : [
          ["a", a],
          ["b", b],
        ]) as ["a" | "b", Variant][]) {
      const c0 = cpuMs();
      const startUs = monoUs();
      for (let i = 0; i < block; i++) {
        const t0 = performance.now();
        await predict(flow, r * block + i, v);
        acc[name].t.push(performance.now() - t0);
      }
      acc[name].cpu += cpuMs() - c0;
      // One window per block, all named alike (profile-summary.ts takes them together).
      windows.push({ name: names[name === "a" ? 0 : 1], startUs, endUs: monoUs(), requests: block });
    }
  }
  const n = rounds * block;
  return {
    p50: pct(acc.b.t, 50) - pct(acc.a.t, 50),
    cpu: (acc.b.cpu - acc.a.cpu) / n,
    aP50: pct(acc.a.t, 50),
    bP50: pct(acc.b.t, 50),
  };
}

// ---- run ----
const rssStart = memMB("VmRSS");
// Start-up's own peak: initdb on the bench's fresh data dir, migrations, the flows' creation.
const hwmStart = memMB("VmHWM");
const rows: [string, string, string, string][] = [];
const row = (figure: string, value: string, baseline: string, goal: string) => {
  rows.push([figure, value, baseline, goal]);
  console.log(`  ${figure}: ${value}${baseline ? `  [${baseline}]` : ""}`);
};
console.log(
  `Switchyard prediction benchmark: ${kind === "next" ? "Next.js production server" : "route handlers on node:http (no build)"}, ` +
    `${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "embedded PGlite"}, ${os.cpus().length} CPUs, Node ${process.version}`,
);
console.log(`load average at start: ${loadavg()}`);

await warmUp(server); // flow builds, sessions, and the JIT's compiling of the hot path (BENCH_WARMUP)
const calls = { conversation: await recordCalls("conversation"), agent: await recordCalls("agent") };
console.log(
  `one prediction's outbound calls (replayed as the baseline): conversation ${calls.conversation.length}, agent ${calls.agent.length}`,
);
const conv = await sequential("conversation", N, calls.conversation);
row(
  "conversation c=1 overhead p50 / p99",
  `${ms(pct(conv.server, 50) - pct(conv.direct, 50))} / ${ms(pct(conv.server, 99) - pct(conv.direct, 99))}`,
  `prediction ${ms(pct(conv.server, 50))} / ${ms(pct(conv.server, 99))}, model direct ${ms(pct(conv.direct, 50))} / ${ms(pct(conv.direct, 99))}`,
  "≤ 2 / ≤ 6 ms",
);
row("conversation c=1 server CPU per request", ms(conv.cpuPerReq), "", "≤ 2.5 ms");
const agent = await sequential("agent", Math.ceil(N / 3), calls.agent);
row(
  "agent c=1 overhead p50",
  ms(pct(agent.server, 50) - pct(agent.direct, 50)),
  `prediction ${ms(pct(agent.server, 50))}, ${calls.agent.length} calls direct ${ms(pct(agent.direct, 50))}; CPU ${ms(agent.cpuPerReq)}/req`,
  "≤ 6 ms",
);
const keyCost = await interleaved("conversation", { key: false }, { key: true }, ["key-anonymous", "key-key"]);
row(
  "API key check (key minus anonymous, interleaved)",
  `p50 ${ms(keyCost.p50)}, CPU ${ms(keyCost.cpu)}/req`,
  `anonymous p50 ${ms(keyCost.aP50)}, key p50 ${ms(keyCost.bP50)}`,
  "< 0.2 ms",
);
const streamCost = await interleaved("conversation", { key: true }, { key: true, streaming: true }, [
  "stream-json",
  "stream-sse",
]);
row(
  "streaming over JSON (interleaved)",
  `p50 ${ms(streamCost.p50)}, CPU ${ms(streamCost.cpu)}/req`,
  `JSON p50 ${ms(streamCost.aP50)}, SSE p50 ${ms(streamCost.bP50)}`,
  "< 1 ms",
);
let load64: Awaited<ReturnType<typeof throughput>> | undefined;
for (const [flow, c, goal] of [
  ["conversation", 8, "≥ 400 req/s"],
  ["conversation", 64, "≥ 400 req/s"],
  ["agent", 8, "≥ 150 req/s"],
] as const) {
  const t = await throughput(flow, c, calls[flow], c === 64);
  row(
    `${flow} c=${c}`,
    `${t.rate.toFixed(0)} req/s, CPU ${ms(t.cpuPerReq)}/req, ${t.cores.toFixed(2)} cores`,
    `model direct ${t.direct.toFixed(0)} req/s; load ${loadavg()}`,
    goal,
  );
  if (c === 64) load64 = t;
}

// ---- at rest, then the first predictions after it ----
// The figures above are the warm server's. At rest is a server idle after that load, not one 2 s past
// it: both threads collect their garbage once idle for IDLE_GC_MS (server/idle-gc.mjs), as a server
// does between bursts of traffic. So it is read REST_MS after the last request (the 2 s figure is
// printed as "after load"), and once more at LONG_REST_MS, when V8's memory reducer has run too (it
// shrinks the young generation some seconds after the idle collection).
await new Promise((r) => setTimeout(r, 2000));
const rssAfterLoad = memMB("VmRSS");
await new Promise((r) => setTimeout(r, REST_MS - 2000));
const rssRest = memMB("VmRSS");
await new Promise((r) => setTimeout(r, LONG_REST_MS - REST_MS));
const rssLongRest = memMB("VmRSS");
if (load64)
  row(
    "resident memory: start / after load (2 s) / at rest (12 s / 30 s idle) / peak under c=64",
    `${rssStart.toFixed(0)} / ${rssAfterLoad.toFixed(0)} / ${rssRest.toFixed(0)} / ${rssLongRest.toFixed(0)} / ${load64.peak.toFixed(0)} MB`,
    `start-up peak ${hwmStart.toFixed(0)} MB; c=64 peak ${load64.exactPeak ? `VmHWM of the phase (sampled every 50 ms: ${load64.sampledPeak.toFixed(0)})` : "sampled every 50 ms"}`,
    "rest ≤ 250, peak ≤ 400 MB",
  );
// A full collection of an idle heap (ours at IDLE_GC_MS, V8's memory reducer later) lets the maps of
// the last requests' objects die, and V8 throws away the optimised code that depended on them: the
// first requests after it run slower until the JIT has compiled the hot path again. Measured apart
// from the warm figures above (it used to be mixed into them): the same c=1 loop, right after the rest.
const cold = await sequential("conversation", N, calls.conversation, { key: true }, "-after-rest");
row(
  "conversation c=1 right after the rest: overhead p50, server CPU",
  `${ms(pct(cold.server, 50) - pct(cold.direct, 50))}, ${ms(cold.cpuPerReq)}/req`,
  `first ${N} predictions after ${LONG_REST_MS / 1000} s idle; prediction p50 ${ms(pct(cold.server, 50))}`,
  "(not a goal: the warm figures above are)",
);

console.log(`\nload average at end: ${loadavg()}\n`);
console.log("| figure | value | baseline (same run) | goal |\n|---|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);

await server.stop();
if (profileOut) {
  // Node names a thread's profile CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile: thread 0 is the
  // main thread; the embedded database's thread is the only other one with JavaScript to profile.
  const files = fs.readdirSync(profDir).filter((f) => f.endsWith(".cpuprofile"));
  const threadOf = (f: string) => Number(f.split(".").at(-3));
  const main = files.find((f) => threadOf(f) === 0);
  if (!main) throw new Error("no .cpuprofile written by the server's main thread");
  fs.copyFileSync(path.join(profDir, main), profileOut);
  fs.writeFileSync(`${profileOut}.windows.json`, `${JSON.stringify(windows, null, 2)}\n`);
  console.log(`\nCPU profile of the server: ${profileOut} (windows: ${profileOut}.windows.json)`);
  const others = files.filter((f) => threadOf(f) !== 0);
  for (const [i, f] of others.entries()) {
    const out = `${profileOut.replace(/\.cpuprofile$/, "")}.thread${others.length > 1 ? i + 1 : ""}.cpuprofile`;
    fs.copyFileSync(path.join(profDir, f), out);
    fs.copyFileSync(`${profileOut}.windows.json`, `${out}.windows.json`);
    console.log(`CPU profile of its other thread (the embedded database's): ${out}`);
  }
}
await Promise.all([stub.close(), productApi.close()]);
fs.rmSync(profDir, { recursive: true, force: true });
process.exit(0);
