// `npx tsx bench/ab.ts <git ref or dir> [dir]`: one change measured side by side. Runs two server
// processes at once, A (the ref, extracted with `git archive` into a temp dir that borrows this
// checkout's node_modules, or a directory) and B (default: this checkout), and sends them the same
// requests in alternating blocks (A then B, B then A, …), so both see the same machine load.
// Prints per server: conversation c=1 latency p50 and server CPU per request, conversation c=8
// requests/s and CPU per request, product-search agent c=1 p50 and CPU per request; each as the
// median and range over the rounds. BENCH_SERVER=next compares production builds (each dir needs
// one); default: the handlers on node:http (bench/serve-routes.ts), which needs no build. A side
// may name its own server with a prefix: `next:.` vs `routes:.` measures what Next.js itself adds.
// BENCH_ROUNDS (6), BENCH_SECONDS per throughput block (3), BENCH_C its clients (8), BENCH_WARMUP
// predictions per server before the rounds (3000: server-process.ts warmUp). BENCH_A_ENV /
// BENCH_B_ENV add settings to one side's server ("PGLITE_THREAD=false"; several separated by
// spaces), so one checkout can be measured against itself with a switch flipped:
// `BENCH_A_ENV=PGLITE_THREAD=false tsx bench/ab.ts .`.
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createModelStub } from "../dev/model-stub/server";
import { createProductApi } from "../dev/product-api/server";
import {
  type BenchServer,
  type Flow,
  loadavg,
  pct,
  type ServerKind,
  startBenchServer,
  type Variant,
  warmUp,
} from "./server-process";

const root = path.resolve(import.meta.dirname, "..");
const [aArg, bArg] = process.argv.slice(2);
if (!aArg) {
  console.error("usage: tsx bench/ab.ts <git ref or dir for A> [dir for B, default this checkout]");
  process.exit(2);
}
const kind = (process.env.BENCH_SERVER ?? "routes") as ServerKind;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
/** Clients of the throughput row (BENCH_C, default 8). */
const C = Number(process.env.BENCH_C ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

type Side = { dir: string; label: string; temp: boolean; kind: ServerKind };
function checkout(arg: string): Side {
  const m = /^(next|routes):(.*)$/.exec(arg);
  return { ...place(m ? m[2] : arg), kind: m ? (m[1] as ServerKind) : kind };
}
function place(refOrDir: string): { dir: string; label: string; temp: boolean } {
  if (fs.existsSync(refOrDir) && fs.statSync(refOrDir).isDirectory())
    return { dir: path.resolve(refOrDir), label: refOrDir, temp: false };
  const sha = execSync(`git rev-parse --short ${refOrDir}`, { cwd: root }).toString().trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `switchyard-ab-${sha}-`));
  execSync(`git archive ${sha} | tar -x -C ${dir}`, { cwd: root, shell: "/bin/bash" });
  fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
  fs.rmSync(path.join(dir, "lib/db/generated"), { recursive: true, force: true });
  fs.cpSync(path.join(root, "lib/db/generated"), path.join(dir, "lib/db/generated"), { recursive: true });
  // A production build of this checkout serves the extracted one too (when the change is outside it).
  if (fs.existsSync(path.join(root, ".next"))) fs.symlinkSync(path.join(root, ".next"), path.join(dir, ".next"));
  return { dir, label: `${refOrDir} (${sha})`, temp: true };
}
const A = checkout(aArg);
const B = bArg ? checkout(bArg) : { dir: root, label: "this checkout", temp: false, kind };

const stub = await createModelStub();
const productApi = await createProductApi();
/** KEY=VALUE pairs separated by spaces, as an environment. */
const envOf = (spec = "") =>
  Object.fromEntries(
    spec
      .split(/\s+/)
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
  );
const sideEnv = { A: envOf(process.env.BENCH_A_ENV), B: envOf(process.env.BENCH_B_ENV) };
const start = (c: Side, name: "A" | "B") =>
  startBenchServer({
    kind: c.kind,
    cwd: c.dir,
    modelUrl: stub.url,
    productApiUrl: productApi.url,
    name,
    env: sideEnv[name],
  });
const servers = { A: await start(A, "A"), B: await start(B, "B") };
const envNote = (n: "A" | "B") => (Object.keys(sideEnv[n]).length ? ` with ${JSON.stringify(sideEnv[n])}` : "");
console.log(
  `A/B: A = ${A.kind} server of ${A.label}${envNote("A")}, B = ${B.kind} server of ${B.label}${envNote("B")}; load average ${loadavg()}`,
);

for (const s of Object.values(servers)) await warmUp(s);

/** Every sample of the c=1 rows, over all rounds (the per-round figures are in perRound). */
type Acc = {
  c1: number[];
  agent: number[];
  agentCpu: number[];
  sse: number[];
  sseCpu: number[];
};
const acc: Record<"A" | "B", Acc> = {
  A: { c1: [], agent: [], agentCpu: [], sse: [], sseCpu: [] },
  B: { c1: [], agent: [], agentCpu: [], sse: [], sseCpu: [] },
};
const perRound: Record<"A" | "B", { c1p50: number[]; c1Cpu: number[]; many: number[]; manyCpu: number[] }> = {
  A: { c1p50: [], c1Cpu: [], many: [], manyCpu: [] },
  B: { c1p50: [], c1Cpu: [], many: [], manyCpu: [] },
};

async function c1(s: BenchServer, flow: Flow, n: number, into: number[], v: Variant = { key: true }) {
  const c0 = s.cpuMs();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await s.predict(flow, i, v);
    times.push(performance.now() - t);
  }
  into.push(...times);
  return { p50: pct(times, 50), cpu: (s.cpuMs() - c0) / n };
}
async function concurrent(s: BenchServer) {
  const c0 = s.cpuMs();
  let done = 0;
  const t0 = performance.now();
  const until = t0 + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: C }, async (_, w) => {
      for (let i = w; performance.now() < until; i += C) {
        await s.predict("conversation", i);
        done++;
      }
    }),
  );
  return { rate: done / ((performance.now() - t0) / 1000), cpu: (s.cpuMs() - c0) / done };
}

for (let r = 0; r < ROUNDS; r++) {
  for (const name of (r % 2 ? ["B", "A"] : ["A", "B"]) as ("A" | "B")[]) {
    const s = servers[name];
    const one = await c1(s, "conversation", 40, acc[name].c1);
    perRound[name].c1p50.push(one.p50);
    perRound[name].c1Cpu.push(one.cpu);
    const many = await concurrent(s);
    perRound[name].many.push(many.rate);
    perRound[name].manyCpu.push(many.cpu);
    const ag = await c1(s, "agent", 10, acc[name].agent);
    acc[name].agentCpu.push(ag.cpu);
    const sse = await c1(s, "conversation", 20, acc[name].sse, { key: true, streaming: true });
    acc[name].sseCpu.push(sse.cpu);
  }
  stub.requests.length = 0;
  productApi.requests.length = 0;
}

const med = (xs: number[]) => pct(xs, 50);
const range = (xs: number[], d = 2) =>
  `${med(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;
console.log(`\nload average at end: ${loadavg()}; median (range) over ${ROUNDS} rounds\n`);
console.log("| figure | A | B |\n|---|---|---|");
const line = (label: string, f: (n: "A" | "B") => string) => console.log(`| ${label} | ${f("A")} | ${f("B")} |`);
line("conversation c=1 p50 ms", (n) => range(perRound[n].c1p50));
line("conversation c=1 server CPU ms/request", (n) => range(perRound[n].c1Cpu));
line(`conversation c=${C} req/s`, (n) => range(perRound[n].many, 0));
line(`conversation c=${C} server CPU ms/request`, (n) => range(perRound[n].manyCpu));
line("agent c=1 p50 ms (all rounds)", (n) => med(acc[n].agent).toFixed(2));
line("agent c=1 server CPU ms/request", (n) => range(acc[n].agentCpu));
line("conversation streamed c=1 p50 ms (all rounds)", (n) => med(acc[n].sse).toFixed(2));
line("conversation streamed c=1 server CPU ms/request", (n) => range(acc[n].sseCpu));

await Promise.all([servers.A.stop(), servers.B.stop()]);
await Promise.all([stub.close(), productApi.close()]);
for (const c of [A, B]) if (c.temp) fs.rmSync(c.dir, { recursive: true, force: true });
process.exit(0);
