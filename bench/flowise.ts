// `npm run bench:flowise`: the same flows on Switchyard and on Flowise 3.1.4, side by side, rounds
// interleaved, on the same scripted model and product API (both served by this process).
//
// Flowise is installed into os.tmpdir()/switchyard-flowise-3.1.4 (never into the project), kept there
// between runs: `npm i flowise@3.1.4 --ignore-scripts`, then `npx node-gyp rebuild --nodedir=/usr` in
// its node_modules/sqlite3 (the install scripts would download prebuilt binaries; this machine reaches
// only the package registries). An install that fails, or a Flowise that does not answer within
// FLOWISE_START_TIMEOUT_MS, ends the bench with the reason and the last lines of its output.
// Flowise runs on a free port with its own data dir (DATABASE_PATH, SECRETKEY_PATH, LOG_PATH,
// BLOB_STORAGE_PATH, APIKEY_PATH in a temp dir), telemetry off. Its first account is registered and
// logged in over its API; its OpenAI credential, chatflows and agentflow are created through
// POST /api/v1/credentials and POST /api/v1/chatflows (the exported flowData, repointed at this
// process's servers). Switchyard gets the same exports through POST /api/v1/chatflows/import.
//
// Rows: the conversation chatflow (c=1, c=8), the product-search agent (c=8), the ten-node agentflow
// of bench/agentflow-flows.ts (c=1, c=8). Each row runs BENCH_ROUNDS rounds (default 3); a round is
// BENCH_SECONDS (default 5) on one side then as long on the other, the order alternating. Printed per
// row: req/s and p50/p99 of each side (medians over the rounds), the throughput ratio (each round's
// ratio: min / median / max), failed answers, with the load average. Predictions: Switchyard's with
// an API key, Flowise's anonymous (its flows have no key; checking one costs Flowise a hash per call).
// Figures, never asserted.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { hasBuild } from "../dev/processes";
import { createModelStub } from "../dev/model-stub/server";
import { createProductApi } from "../dev/product-api/server";
import { freePort } from "../dev/redis-server";
import { agentflowBrain, type FlowiseExport, tenNodeFlow } from "./agentflow-flows";
import { request } from "./http-client";
import { loadavg, pct, type ServerKind, startBenchServer } from "./server-process";

const FLOWISE_VERSION = "3.1.4";
const root = path.resolve(import.meta.dirname, "..");
const fixtures = path.resolve(root, "../shared/fixtures/flowise");
const kind = (process.env.BENCH_SERVER ?? (hasBuild() ? "next" : "routes")) as ServerKind;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const START_TIMEOUT_MS = Number(process.env.FLOWISE_START_TIMEOUT_MS ?? 600_000);
const INSTALL_TIMEOUT_MS = Number(process.env.FLOWISE_INSTALL_TIMEOUT_MS ?? 1_800_000);
const installDir = path.join(os.tmpdir(), `switchyard-flowise-${FLOWISE_VERSION}`);
const run = promisify(execFile);

function fail(message: string): never {
  console.error(`bench:flowise: ${message}`);
  process.exit(1);
}

// ---- install (cached) ----
async function installFlowise(): Promise<string> {
  const marker = path.join(installDir, ".switchyard-ready");
  const bin = path.join(installDir, "node_modules", "flowise", "bin", "run");
  if (fs.existsSync(marker) && fs.existsSync(bin)) return bin;
  fs.mkdirSync(installDir, { recursive: true });
  fs.writeFileSync(path.join(installDir, "package.json"), '{ "name": "flowise-bench", "private": true }\n');
  const step = async (what: string, cmd: string, args: string[], cwd: string) => {
    console.log(`installing Flowise ${FLOWISE_VERSION} into ${installDir}: ${what}…`);
    try {
      await run(cmd, args, { cwd, timeout: INSTALL_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
    } catch (e) {
      const err = e as { stderr?: string; stdout?: string; message: string; killed?: boolean };
      const tail = `${err.stdout ?? ""}\n${err.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
      fail(
        `${what} failed${err.killed ? ` (no end after ${INSTALL_TIMEOUT_MS / 1000} s)` : ""}: ${err.message.split("\n")[0]}\n${tail}`,
      );
    }
  };
  await step(
    `npm i flowise@${FLOWISE_VERSION} --ignore-scripts`,
    "npm",
    ["i", `flowise@${FLOWISE_VERSION}`, "--ignore-scripts", "--no-audit", "--no-fund"],
    installDir,
  );
  const sqlite = path.join(installDir, "node_modules", "sqlite3");
  if (!fs.existsSync(sqlite)) fail(`the install has no node_modules/sqlite3 (${sqlite})`);
  await step(
    "npx node-gyp rebuild --nodedir=/usr (sqlite3)",
    "npx",
    ["--yes", "node-gyp", "rebuild", "--nodedir=/usr"],
    sqlite,
  );
  if (!fs.existsSync(bin)) fail(`the install has no ${bin}`);
  fs.writeFileSync(marker, `${new Date().toISOString()}\n`);
  return bin;
}

// ---- a running Flowise ----
interface Flowise {
  url: string;
  child: ChildProcess;
  /** Headers of the logged-in admin for Flowise's management API (its UI's: cookie + internal). */
  headers: Record<string, string>;
  stop(): Promise<void>;
}

async function startFlowise(bin: string): Promise<Flowise> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "flowise-bench-data-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_PATH: dataDir,
    APIKEY_PATH: dataDir,
    SECRETKEY_PATH: dataDir,
    LOG_PATH: path.join(dataDir, "logs"),
    BLOB_STORAGE_PATH: path.join(dataDir, "storage"),
    LOG_LEVEL: "error",
    DISABLE_FLOWISE_TELEMETRY: "true",
    // Its HTTP step refuses loopback addresses by default; the product API is on 127.0.0.1 (ours
    // allows the bench's hosts by name: OUTBOUND_ALLOW_HOSTS).
    HTTP_SECURITY_CHECK: "false",
    // As `npx flowise start` runs (no NODE_ENV): NODE_ENV=production forces Secure cookies, and
    // its session cookie is then never set over this plain-HTTP loopback connection.
    SECURE_COOKIES: "false",
  };
  const child = spawn(process.execPath, [bin, "start"], {
    cwd: installDir,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString("utf8").split("\n"));
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });
  // A failed or interrupted bench leaves no Flowise behind (its data dir stays in the temp dir).
  process.on("exit", () => child.kill("SIGKILL"));
  const stop = async () => {
    if (!exited) {
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await gone;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exited) fail(`Flowise exited while starting:\n${output.slice(-20).join("\n")}`);
    if (Date.now() > deadline) {
      await stop();
      fail(`Flowise did not answer /api/v1/ping within ${START_TIMEOUT_MS / 1000} s:\n${output.slice(-20).join("\n")}`);
    }
    try {
      if ((await request(`${url}/api/v1/ping`)).status === 200) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  // Its first account (open source: the owner), then a login: the JWT cookies its UI sends.
  const admin = { name: "Bench", email: "bench@example.com", password: "Bench-password-1!" };
  const registered = await request(`${url}/api/v1/account/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ user: { name: admin.name, email: admin.email, credential: admin.password } }),
  });
  if (registered.status >= 300) fail(`Flowise register: HTTP ${registered.status} ${registered.text.slice(0, 300)}`);
  const login = await request(`${url}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: admin.email, password: admin.password }),
  });
  if (login.status >= 300) fail(`Flowise login: HTTP ${login.status} ${login.text.slice(0, 300)}`);
  const cookies = ([] as string[]).concat(login.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]);
  return { url, child, headers: { cookie: cookies.join("; "), "x-request-from": "internal" }, stop };
}

async function flowiseApi(f: Flowise, pathname: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await request(`${f.url}${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...f.headers },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) fail(`Flowise ${pathname}: HTTP ${res.status} ${res.text.slice(0, 400)}`);
  return JSON.parse(res.text) as Record<string, unknown>;
}

/**
 * A hand-written Flowise export made whole as Flowise's editor saves it: each node's definition
 * (GET /api/v1/nodes/{name}: version, category, base classes, and its parameters as `inputParams`,
 * which Flowise's runtime reads to know which inputs take variables and which load a model or tool),
 * with the node's own id, label and input values.
 */
async function withDefinitions(f: Flowise, flow: FlowiseExport): Promise<FlowiseExport> {
  const definitions = new Map<string, Record<string, unknown>>();
  const nodes = [];
  for (const node of flow.nodes) {
    const data = node.data as { name: string } & Record<string, unknown>;
    if (!definitions.has(data.name)) {
      const res = await request(`${f.url}/api/v1/nodes/${data.name}`, { headers: f.headers });
      if (res.status !== 200) fail(`Flowise has no node ${data.name}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
      definitions.set(data.name, JSON.parse(res.text) as Record<string, unknown>);
    }
    const { inputs: params, filePath: _, ...definition } = definitions.get(data.name)!;
    nodes.push({
      ...node,
      data: { ...definition, inputParams: params ?? [], inputAnchors: [], outputAnchors: [], outputs: {}, ...data },
    });
  }
  return { ...flow, nodes };
}

// ---- the flows: Flowise exports, repointed at this process's servers ----
const FIXTURE_MODEL = "http://127.0.0.1:4111/v1";
const FIXTURE_API = "http://127.0.0.1:4110";
const FIXTURE_CREDENTIAL = "3fbd9238-8236-40ed-8383-1aa387e045fa";

/** An exported chatflow with its model, its product API (also inside base64 specs) and credential repointed. */
function repoint(file: string, modelUrl: string, apiUrl: string, credentialId: string): FlowiseExport {
  let text = fs.readFileSync(path.join(fixtures, file), "utf8");
  text = text.replace(/data:application\/x-yaml;base64,([A-Za-z0-9+/=]+)/g, (_, b64: string) => {
    const spec = Buffer.from(b64, "base64").toString("utf8").replaceAll(FIXTURE_API, apiUrl);
    return `data:application/x-yaml;base64,${Buffer.from(spec).toString("base64")}`;
  });
  text = text
    .replaceAll(FIXTURE_MODEL, modelUrl)
    .replaceAll(FIXTURE_API, apiUrl)
    .replaceAll(FIXTURE_CREDENTIAL, credentialId);
  return JSON.parse(text) as FlowiseExport;
}

// ---- run ----
console.log(
  `Switchyard vs Flowise ${FLOWISE_VERSION}: ${os.cpus().length} CPUs, Node ${process.version}, ` +
    `Switchyard on ${kind === "next" ? "its Next.js production server" : "its route handlers on node:http (no build)"}, embedded PGlite; Flowise on SQLite`,
);
console.log(`load average at start: ${loadavg()}`);
const bin = await installFlowise();
const stub = await createModelStub({ brain: agentflowBrain });
const productApi = await createProductApi();
const flowise = await startFlowise(bin);
const ours = await startBenchServer({ kind, cwd: root, modelUrl: stub.url, productApiUrl: productApi.url });
const stopAll = async () => {
  await Promise.allSettled([flowise.stop(), ours.stop()]);
  await Promise.allSettled([stub.close(), productApi.close()]);
};
// A failed or interrupted bench leaves no server behind (its data dir stays in the temp dir).
process.on("exit", () => ours.process.child.kill("SIGKILL"));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));

const credentialId = (
  await flowiseApi(flowise, "/api/v1/credentials", {
    name: "bench model",
    credentialName: "openAIApi",
    plainDataObj: { openAIApiKey: "bench" },
  })
).id as string;
const exportsOf = {
  conversation: repoint("conversation.json", stub.url, productApi.url, credentialId),
  agent: repoint("product-search-agent.json", stub.url, productApi.url, credentialId),
  agentflow: tenNodeFlow({ modelUrl: stub.url, productApiUrl: productApi.url, credentialId }),
};
type FlowName = keyof typeof exportsOf;
const QUESTIONS: Record<FlowName, string> = {
  conversation: "Hello there",
  agent: "find me a laptop under 1500 in Germany",
  agentflow: "hello there",
};

const flowiseIds = {} as Record<FlowName, string>;
const ourIds = {} as Record<FlowName, string>;
for (const name of Object.keys(exportsOf) as FlowName[]) {
  const type = name === "agentflow" ? "AGENTFLOW" : "CHATFLOW";
  flowiseIds[name] = (
    await flowiseApi(flowise, "/api/v1/chatflows", {
      name: `bench ${name}`,
      flowData: JSON.stringify(
        name === "agentflow" ? await withDefinitions(flowise, exportsOf[name]) : exportsOf[name],
      ),
      type,
      deployed: false,
      isPublic: false,
    })
  ).id as string;
  const imported = await request(`${ours.url}/api/v1/chatflows/import`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: ours.adminAuth },
    body: JSON.stringify({ name: `bench ${name}`, ...exportsOf[name] }),
  });
  if (imported.status !== 201)
    fail(`Switchyard import of ${name}: HTTP ${imported.status} ${imported.text.slice(0, 400)}`);
  ourIds[name] = (JSON.parse(imported.text) as { id: string }).id;
}

type Side = "switchyard" | "flowise";
/**
 * One prediction; its answer must be a 200 with text. Failures are counted, not thrown. The stubs'
 * records are dropped after it, unless `keepRecords`.
 */
async function predict(side: Side, name: FlowName, i: number, keepRecords = false): Promise<string | undefined> {
  const url =
    side === "switchyard"
      ? `${ours.url}/api/v1/prediction/${ourIds[name]}`
      : `${flowise.url}/api/v1/prediction/${flowiseIds[name]}`;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (side === "switchyard") headers.authorization = `Bearer ${ours.apiKey}`;
  const res = await request(url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      question: `${QUESTIONS[name]} ${i % 7}`,
      overrideConfig: { sessionId: `bench-${name}-${i % 50}` },
    }),
  });
  let text: unknown;
  try {
    text = (JSON.parse(res.text) as { text?: unknown }).text;
  } catch {}
  if (res.status !== 200 || typeof text !== "string" || !text) return `HTTP ${res.status} ${res.text.slice(0, 300)}`;
  lastAnswer = text;
  if (!keepRecords) {
    stub.requests.length = 0;
    productApi.requests.length = 0;
  }
  return undefined;
}
let lastAnswer = "";

/** Which flows each side can run: one prediction each, its failure (or its model and API calls and answer) printed. */
const runnable = { switchyard: new Set<FlowName>(), flowise: new Set<FlowName>() };
for (const side of ["switchyard", "flowise"] as const) {
  for (const name of Object.keys(exportsOf) as FlowName[]) {
    // What one prediction did, to see both sides do the same work: calls to the model and the API.
    stub.requests.length = 0;
    productApi.requests.length = 0;
    const error = await predict(side, name, 0, true);
    if (error) console.log(`  ${side} cannot run ${name}: ${error}`);
    else {
      runnable[side].add(name);
      console.log(
        `  ${side} ${name}: one prediction made ${stub.requests.length} model and ${productApi.requests.length} product API calls, answered "${lastAnswer.slice(0, 100).replaceAll("\n", " ")}"`,
      );
    }
  }
}

/** c clients for SECONDS on one side. */
async function load(side: Side, name: FlowName, c: number) {
  const latencies: number[] = [];
  let failed = 0;
  let firstError: string | undefined;
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: c }, async (_, w) => {
      for (let i = w; performance.now() < until; i += c) {
        const t0 = performance.now();
        const error = await predict(side, name, i);
        if (error) {
          failed++;
          firstError ??= error;
        } else latencies.push(performance.now() - t0);
      }
    }),
  );
  const rate = latencies.length / ((performance.now() - started) / 1000);
  return { rate, p50: pct(latencies, 50) ?? Number.NaN, p99: pct(latencies, 99) ?? Number.NaN, failed, firstError };
}

// Warm-up, both sides alike: JIT, flow builds and caches, sessions.
for (const side of ["switchyard", "flowise"] as const) for (const name of runnable[side]) await load(side, name, 8);

const med = (xs: number[]) => pct(xs, 50);
const f1 = (x: number) => x.toFixed(1);
const rows: string[][] = [];
for (const [name, c] of [
  ["conversation", 1],
  ["conversation", 8],
  ["agent", 8],
  ["agentflow", 1],
  ["agentflow", 8],
] as const) {
  if (!runnable.switchyard.has(name) || !runnable.flowise.has(name)) {
    console.log(`  ${name} c=${c}: skipped (not runnable on both sides, see above)`);
    continue;
  }
  const got = {
    switchyard: [] as Awaited<ReturnType<typeof load>>[],
    flowise: [] as Awaited<ReturnType<typeof load>>[],
  };
  for (let r = 0; r < ROUNDS; r++) {
    const order: Side[] = r % 2 ? ["flowise", "switchyard"] : ["switchyard", "flowise"];
    for (const side of order) got[side].push(await load(side, name, c));
  }
  const ratios = got.switchyard.map((s, i) => s.rate / got.flowise[i].rate);
  const cell = (side: Side) => {
    const g = got[side];
    const failed = g.reduce((n, x) => n + x.failed, 0);
    const err = g.find((x) => x.firstError)?.firstError;
    return `${f1(med(g.map((x) => x.rate)))} req/s, p50 ${f1(med(g.map((x) => x.p50)))} / p99 ${f1(med(g.map((x) => x.p99)))} ms${failed ? `, ${failed} failed (${err?.slice(0, 120)})` : ""}`;
  };
  const row = [
    `${name === "agentflow" ? "ten-node agentflow" : name === "agent" ? "product-search agent" : "conversation"} c=${c}`,
    cell("switchyard"),
    cell("flowise"),
    `${f1(Math.min(...ratios))} / ${f1(med(ratios))} / ${f1(Math.max(...ratios))}×`,
    loadavg(),
  ];
  rows.push(row);
  console.log(`  ${row[0]}: Switchyard ${row[1]} | Flowise ${row[2]} | ratio ${row[3]} | load ${row[4]}`);
}

console.log(`\nload average at end: ${loadavg()}\n`);
console.log(
  `| flow | Switchyard (median of ${ROUNDS} rounds) | Flowise ${FLOWISE_VERSION} | throughput ratio min / median / max | load average |\n|---|---|---|---|---|`,
);
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
await stopAll();
process.exit(0);
