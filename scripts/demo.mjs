// `npm run demo`: the product-search demo in one command. Starts the scripted model stub, the demo
// product API and the app (npm start: builds when stale) with the settings that connect them:
// OPENAI_BASE_URL to the stub and OUTBOUND_ALLOW_HOSTS naming the two local servers, since the
// outbound guard refuses private addresses the operator did not allow. Ctrl-C stops all three;
// if one of them dies, the others are stopped too.
//
// Ports: the product API belongs where the example spec's server points (127.0.0.1:4010; change
// DEMO_PRODUCT_PORT only with the spec);
// DEMO_MODEL_PORT (default 4011) and PORT (the app, default 3000) may be changed.
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const tsx = path.join(root, "node_modules/.bin/tsx");
const host = "127.0.0.1";
const productPort = Number(process.env.DEMO_PRODUCT_PORT || 4010);
const modelPort = Number(process.env.DEMO_MODEL_PORT || 4011);
const appPort = Number(process.env.PORT || 3000);

// The children's settings are passed explicitly: HOST/PORT mean different things to each of them.
const { HOST: _host, PORT: _port, ...baseEnv } = process.env;
const children = [
  { name: "product-api", cmd: tsx, args: ["scripts/product-api.ts"], env: { HOST: host, PORT: String(productPort) } },
  {
    name: "model-stub",
    cmd: tsx,
    args: ["scripts/model-stub.ts"],
    env: { MODEL_STUB_HOST: host, MODEL_STUB_PORT: String(modelPort) },
  },
  {
    name: "app",
    cmd: process.execPath,
    args: ["server/start.mjs"],
    env: {
      HOST: host,
      PORT: String(appPort),
      OPENAI_BASE_URL: `http://${host}:${modelPort}/v1`,
      OPENAI_API_KEY: process.env.OPENAI_API_KEY || "stub",
      OUTBOUND_ALLOW_HOSTS: `${host}:${productPort},${host}:${modelPort}`,
    },
  },
];

const running = new Map();
let stopping = false;

function prefixLines(name, stream, out) {
  let rest = "";
  stream.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) out.write(`[${name}] ${line}\n`);
  });
  stream.on("end", () => rest && out.write(`[${name}] ${rest}\n`));
}

/**
 * Each child runs in its own process group, so the signal reaches what it started too (the app's
 * `next build` runs in a grandchild that would otherwise outlive the demo).
 */
function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

function stopAll(code) {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  for (const child of running.values()) killGroup(child, "SIGTERM");
  // A child that ignores SIGTERM does not keep the demo alive.
  setTimeout(() => {
    for (const child of running.values()) killGroup(child, "SIGKILL");
    process.exit(code);
  }, 8000).unref();
}

for (const c of children) {
  const child = spawn(c.cmd, c.args, {
    cwd: root,
    env: { ...baseEnv, ...c.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  running.set(c.name, child);
  prefixLines(c.name, child.stdout, process.stdout);
  prefixLines(c.name, child.stderr, process.stderr);
  child.on("exit", (code, signal) => {
    running.delete(c.name);
    killGroup(child, "SIGTERM"); // what it started goes with it
    if (!stopping) {
      console.error(`[demo] ${c.name} stopped (${signal ?? `exit ${code}`}); stopping the others.`);
      stopAll(code || 1);
    }
    if (running.size === 0) process.exit(process.exitCode ?? 0);
  });
}

console.log(
  `[demo] studio on http://${host}:${appPort} once built; model stub on :${modelPort}, product API on :${productPort}. Ctrl-C stops all.`,
);
process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));
