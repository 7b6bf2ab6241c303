// `npx tsx bench/agentflow-profile.ts`: the server CPU of agentflow predictions over HTTP, and a CPU
// profile of it to read with bench/profile-summary.ts. The route handlers on node:http (no build),
// embedded PGlite, the instant scripted model: FLOW=four (Start → LLM → Condition → Direct Reply,
// default) or FLOW=ten (bench/agentflow-flows.ts); N predictions (default 200) after 50 to warm up.
// Prints server CPU per run and per step. The profile goes to $BENCH_PROFILE_DIR (default
// /tmp/agentflow-profile, emptied first); NOPROF=1 runs without it (the CPU figures are then the
// ones to compare). Figures, never asserted: run A/B interleaved, and read them with the load.
import path from "node:path";
import fs from "node:fs";
import { createModelStub } from "../dev/model-stub/server";
import { createProductApi } from "../dev/product-api/server";
import { agentflowBrain, fourNodeFlow, tenNodeFlow } from "./agentflow-flows";
import { request } from "./http-client";
import { startBenchServer } from "./server-process";

const root = path.resolve(import.meta.dirname, "..");
const which = (process.env.FLOW ?? "four") as "four" | "ten";
const stub = await createModelStub({ brain: agentflowBrain });
const productApi = await createProductApi();
const targets = { modelUrl: stub.url, productApiUrl: productApi.url };
const flow = which === "four" ? fourNodeFlow(targets) : tenNodeFlow(targets);
const profDir = process.env.BENCH_PROFILE_DIR ?? "/tmp/agentflow-profile";
fs.rmSync(profDir, { recursive: true, force: true });
fs.mkdirSync(profDir, { recursive: true });
const server = await startBenchServer({
  kind: "routes",
  cwd: root,
  modelUrl: stub.url,
  productApiUrl: productApi.url,
  nodeFlags: process.env.NOPROF ? [] : ["--cpu-prof", `--cpu-prof-dir=${profDir}`],
});
const res = await request(`${server.url}/api/v1/chatflows/import`, {
  method: "POST",
  headers: { "content-type": "application/json", authorization: server.adminAuth },
  body: JSON.stringify({ name: "f", ...flow }),
});
const id = (JSON.parse(res.text) as { id: string }).id;
async function predict(i: number) {
  const r = await request(`${server.url}/api/v1/prediction/${id}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${server.apiKey}` },
    body: JSON.stringify({ question: `hello there ${i % 7}`, overrideConfig: { sessionId: `bench-${i % 50}` } }),
  });
  if (r.status !== 200) throw new Error(r.text);
  return (JSON.parse(r.text) as { agentFlowExecutedData: unknown[] }).agentFlowExecutedData.length;
}
const N = Number(process.env.N ?? 200);
for (let i = 0; i < 50; i++) await predict(i);
const cpu0 = server.cpuMs();
let steps = 0;
const t0 = performance.now();
for (let i = 0; i < N; i++) steps += await predict(i);
const cpu = server.cpuMs() - cpu0;
console.log(
  `${which}-node flow: ${N} runs, ${steps} steps, wall/run ${((performance.now() - t0) / N).toFixed(1)} ms, server CPU/run ${(cpu / N).toFixed(2)} ms, per step ${(cpu / steps).toFixed(2)} ms`,
);
await server.stop();
await stub.close();
await productApi.close();
