// `npm run bench:agentflow`: what the agentflow engine adds per node, in process and over HTTP.
//
// Two flows (bench/agentflow-flows.ts, written as Flowise Agentflow V2 exports and converted by our
// Flowise import): Start → LLM → Condition → Direct Reply, and a ten-node flow (Custom Function
// counting rounds in flow state, LLM, Condition, HTTP to the product API, an Agent with one tool, a
// Loop back twice, an Iteration with an LLM inside, Direct Reply). The model is the instant scripted
// stub of this process; the HTTP step and the agent's tool call reach real servers of this process.
//
// Per-node overhead = (run time − model time) / steps run, where model time is the exact outbound
// calls of one run (recorded at the stub and the product API) replayed directly by this process,
// right after each run. Each row runs BENCH_ROUNDS rounds (default 5) and prints the per-node
// overhead's median of each round as min / median / max over the rounds, with the load average.
//   - in process: buildAgentflow once, then runAgentflow per run (what the engine and the nodes cost,
//     without the server: no database, no HTTP);
//   - over HTTP: the server process of bench/server-process.ts (the production Next.js server when a
//     build exists, else the route handlers on node:http; BENCH_SERVER=next|routes), the flows
//     imported through POST /api/v1/chatflows/import, predictions with an API key: everything a
//     prediction costs (auth, the execution saved after every step, messages stored).
// Then the ten-node flow at 8 clients over HTTP for BENCH_SECONDS (default 5): req/s.
// Figures, never asserted: read them with the load average printed beside them.
import os from "node:os";
import path from "node:path";
import { hasBuild } from "../dev/processes";
import { createModelStub } from "../dev/model-stub/server";
import { createProductApi } from "../dev/product-api/server";
import { buildAgentflow } from "../lib/agentflow/build";
import { runAgentflow } from "../lib/agentflow/engine";
import { initialPosition } from "../lib/agentflow/position";
import { convertFlowiseFlow } from "../lib/flowise/convert";
import { flowiseMappings } from "../lib/flowise/mappings";
import type { FlowiseFlow } from "../lib/flowise/types";
import { getDefinition } from "../lib/nodes/registry";
import { sandboxPool } from "../lib/sandbox";
import { agentflowBrain, type FlowiseExport, fourNodeFlow, tenNodeFlow } from "./agentflow-flows";
import { request } from "./http-client";
import { loadavg, pct, type ServerKind, startBenchServer } from "./server-process";

const root = path.resolve(import.meta.dirname, "..");
const kind = (process.env.BENCH_SERVER ?? (hasBuild() ? "next" : "routes")) as ServerKind;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Runs per round: the four-node flow, the ten-node flow. */
const RUNS = { four: 100, ten: 20 };

const stub = await createModelStub({ brain: agentflowBrain });
const productApi = await createProductApi();
const targets = { modelUrl: stub.url, productApiUrl: productApi.url };
const flows = { four: fourNodeFlow(targets), ten: tenNodeFlow(targets) };
type FlowName = keyof typeof flows;

// ---- the model-direct baseline: one run's outbound calls, replayed ----
type Call = { url: string; init: { method: string; headers?: Record<string, string>; body?: string } };
function forgetRequests() {
  stub.requests.length = 0;
  productApi.requests.length = 0;
}
function takeCalls(): Call[] {
  const calls = [
    ...stub.requests.map((r) => ({
      url: `${stub.origin}${r.path}`,
      init: {
        method: r.method,
        headers: { "content-type": "application/json", authorization: r.authorization ?? "" },
        body: JSON.stringify(r.body),
      },
    })),
    ...productApi.requests.map((r) => ({ url: `${productApi.url}${r.url}`, init: { method: r.method } })),
  ];
  forgetRequests();
  return calls;
}
async function replay(calls: Call[]) {
  for (const c of calls) await request(c.url, c.init);
  forgetRequests();
}

const ms = (x: number) => `${x.toFixed(3)} ms`;
const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${ms(s[0])} / ${ms(pct(s, 50))} / ${ms(s.at(-1)!)}`;
};

/**
 * ROUNDS rounds of `runs` runs, each followed by the replay of its own calls: per round the median
 * of (run − replay) / steps, and CPU per step: `cpuMs` (a CPU clock, ms) over the runs minus over the
 * replays, divided by the steps run (CPU time is less disturbed by other work on the machine than
 * wall time). Returns both per round and the figures of the last round.
 */
async function measure(runs: number, one: (i: number) => Promise<number>, cpuMs: () => number) {
  const perNode: number[] = [];
  const cpuPerNode: number[] = [];
  const last = { run: 0, model: 0, steps: 0, calls: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    const overhead: number[] = [];
    const runTimes: number[] = [];
    const modelTimes: number[] = [];
    let runCpu = 0;
    let replayCpu = 0;
    let stepsInRound = 0;
    for (let i = 0; i < runs; i++) {
      forgetRequests();
      const c0 = cpuMs();
      const t0 = performance.now();
      const steps = await one(r * runs + i);
      const runMs = performance.now() - t0;
      const c1 = cpuMs();
      const calls = takeCalls();
      const t1 = performance.now();
      await replay(calls);
      const modelMs = performance.now() - t1;
      replayCpu += cpuMs() - c1;
      runCpu += c1 - c0;
      stepsInRound += steps;
      overhead.push((runMs - modelMs) / steps);
      runTimes.push(runMs);
      modelTimes.push(modelMs);
      last.steps = steps;
      last.calls = calls.length;
    }
    perNode.push(pct(overhead, 50));
    cpuPerNode.push((runCpu - replayCpu) / stepsInRound);
    last.run = pct(runTimes, 50);
    last.model = pct(modelTimes, 50);
  }
  return { perNode, cpuPerNode, last };
}
/** This process's CPU time (all its threads: the sandbox's workers too), ms. */
const processCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Each step's own time (its executed data's timeMs, model calls included), by flow and step label. */
const stepTimes = new Map<string, number[]>();
function recordStepTimes(flow: string, executed: { nodeLabel: string; timeMs?: number }[]) {
  for (const e of executed) {
    if (e.timeMs === undefined) continue;
    const key = `${flow}\u0000${e.nodeLabel}`;
    const list = stepTimes.get(key) ?? [];
    list.push(e.timeMs);
    stepTimes.set(key, list);
  }
}
/** Prints and forgets the steps' p50 times of one row. */
function printStepTimes(flow: string) {
  const parts: string[] = [];
  for (const [key, times] of stepTimes) {
    const [f, label] = key.split("\u0000");
    if (f === flow) parts.push(`${label} ${pct(times, 50).toFixed(2)}`);
  }
  stepTimes.clear();
  console.log(`    each step's own time, p50 ms (model and HTTP calls included): ${parts.join(", ")}`);
}

const rows: [string, string, string][] = [];
function row(figure: string, value: string, detail: string) {
  rows.push([figure, value, detail]);
  console.log(`  ${figure}: ${value}  [${detail}]`);
}

console.log(
  `Switchyard agentflow benchmark: ${os.cpus().length} CPUs, Node ${process.version}, ${ROUNDS} rounds per row`,
);
console.log(`load average at start: ${loadavg()}`);

// ---- in process ----
/**
 * Steps run: every executed node, plus each pass of an Iteration's steps (the Iteration's entry lists
 * its items; the ten-node flow's Iteration holds one step, run once per item).
 */
function stepsRun(executed: { data: Record<string, unknown> }[]): number {
  let passes = 0;
  for (const e of executed) {
    const items = (e.data.input as { iterationInput?: unknown } | undefined)?.iterationInput;
    if (Array.isArray(items)) passes += items.length;
  }
  return executed.length + passes;
}
const ctx = {
  chatflowId: "bench",
  resolveCredential: async (id: string) => {
    throw new Error(`no credential ${id} in the bench`);
  },
  env: { OPENAI_MODEL: "stub-model", OPENAI_API_KEY: "bench" },
  fetch: globalThis.fetch,
};
async function inProcess(name: FlowName) {
  const converted = convertFlowiseFlow(flows[name] as unknown as FlowiseFlow, flowiseMappings, getDefinition);
  if (converted.unmapped.length) throw new Error(`${name}: unmapped ${JSON.stringify(converted.unmapped)}`);
  const built = (await buildAgentflow(converted.graph, ctx)).agentflow;
  if (!built) throw new Error(`${name}: not an agentflow`);
  const runOnce = async (i: number) => {
    const question = `hello there ${i % 7}`;
    const result = await runAgentflow({
      graph: built.graph,
      stepOf: built.stepOf,
      ids: { chatflowId: "bench", chatId: `chat-${i}`, sessionId: `session-${i % 50}` },
      question,
      history: [],
      start: { state: {}, position: initialPosition(built.startId, question), executedData: [] },
      maxSteps: 200,
      save: async () => {},
    });
    if (result.status !== "finished" || !result.text) throw new Error(`${name}: ${result.status} "${result.text}"`);
    recordStepTimes(name, result.executedData);
    return stepsRun(result.executedData);
  };
  for (let i = 0; i < RUNS[name] * 2; i++) await runOnce(i); // warm-up: JIT, the sandbox's workers
  stepTimes.clear();
  return measure(RUNS[name], runOnce, processCpuMs);
}
for (const name of ["four", "ten"] as const) {
  const m = await inProcess(name);
  row(
    `in process, ${name === "four" ? "Start → LLM → Condition → Direct Reply" : "ten-node flow"}: per-node overhead min / median / max`,
    summary(m.perNode),
    `goal ≤ 0.3 ms; CPU per step ${summary(m.cpuPerNode)} (this process, all threads, minus the replay's); ${m.last.steps} steps, run p50 ${ms(m.last.run)}, its ${m.last.calls} model/API calls direct ${ms(m.last.model)}; load ${loadavg()}`,
  );
  printStepTimes(name);
}

// ---- over HTTP ----
const server = await startBenchServer({ kind, cwd: root, modelUrl: stub.url, productApiUrl: productApi.url });
// A failed or interrupted bench leaves no server behind.
process.on("exit", () => server.process.child.kill("SIGKILL"));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));
async function importFlow(name: string, flow: FlowiseExport): Promise<string> {
  const res = await request(`${server.url}/api/v1/chatflows/import`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: server.adminAuth },
    body: JSON.stringify({ name, ...flow }),
  });
  if (res.status !== 201) throw new Error(`import ${name}: HTTP ${res.status} ${res.text.slice(0, 400)}`);
  return (JSON.parse(res.text) as { id: string }).id;
}
const ids = {
  four: await importFlow("four-node agentflow", flows.four),
  ten: await importFlow("ten-node agentflow", flows.ten),
};
async function predict(name: FlowName, i: number): Promise<number> {
  const res = await request(`${server.url}/api/v1/prediction/${ids[name]}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${server.apiKey}` },
    body: JSON.stringify({
      question: `hello there ${i % 7}`,
      overrideConfig: { sessionId: `bench-${name}-${i % 50}` },
    }),
  });
  if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  const body = JSON.parse(res.text) as {
    text?: string;
    agentFlowExecutedData?: { nodeLabel: string; timeMs?: number; data: Record<string, unknown> }[];
  };
  if (!body.text || !body.agentFlowExecutedData) throw new Error(`${name}: no answer in ${res.text.slice(0, 300)}`);
  recordStepTimes(name, body.agentFlowExecutedData);
  return stepsRun(body.agentFlowExecutedData);
}
for (let i = 0; i < 300; i++) await predict("four", i); // warm-up: the server's JIT, flow builds
for (let i = 0; i < 60; i++) await predict("ten", i);
for (const name of ["four", "ten"] as const) {
  stepTimes.clear();
  const m = await measure(
    RUNS[name],
    (i) => predict(name, i),
    () => server.cpuMs(),
  );
  row(
    `over HTTP (${kind === "next" ? "Next.js server" : "route handlers"}), ${name === "four" ? "Start → LLM → Condition → Direct Reply" : "ten-node flow"}: per-node overhead min / median / max`,
    summary(m.perNode),
    `server CPU per step ${summary(m.cpuPerNode)}; ${m.last.steps} steps, prediction p50 ${ms(m.last.run)}, its ${m.last.calls} model/API calls direct ${ms(m.last.model)}; load ${loadavg()}`,
  );
  printStepTimes(name);
}
{
  let done = 0;
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  const cpu0 = server.cpuMs();
  await Promise.all(
    Array.from({ length: 8 }, async (_, w) => {
      for (let i = w; performance.now() < until; i += 8) {
        const t0 = performance.now();
        await predict("ten", i);
        latencies.push(performance.now() - t0);
        done++;
      }
    }),
  );
  forgetRequests();
  const rate = done / ((performance.now() - started) / 1000);
  const cpu = (server.cpuMs() - cpu0) / done;
  row(
    "over HTTP, ten-node flow c=8",
    `${rate.toFixed(1)} req/s`,
    `p50 ${ms(pct(latencies, 50))}, p99 ${ms(pct(latencies, 99))}, server CPU ${ms(cpu)} per prediction; load ${loadavg()}`,
  );
}

console.log(`\nload average at end: ${loadavg()}\n`);
console.log("| figure | value | detail (same run) |\n|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);

await server.stop();
await Promise.all([stub.close(), productApi.close(), sandboxPool().close()]);
process.exit(0);
