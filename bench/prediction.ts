// `npm run bench`: how much time a prediction spends in Switchyard itself.
// An instant OpenAI-compatible model (our stub on 127.0.0.1) answers every call at once, so what is
// measured is our own work: auth (API key), validation, the cached flow, LangChain, storing both
// messages. Prints p50/p99 of server time for three flows, then requests per second over real HTTP
// at 1, 8 and 64 concurrent clients. Figures, not assertions: compare runs on the same machine.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-bench-"));
Object.assign(process.env, {
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? "pglite:memory://",
  DATA_DIR: dataDir,
  LOAD_EXAMPLE_FLOWS: "false",
});

const { createModelStub } = await import("../dev/model-stub/server");
const stub = await createModelStub();
Object.assign(process.env, { OPENAI_API_KEY: "bench", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });

const { exampleFlow } = await import("../dev/flows");
const { serveRoutes } = await import("../dev/route-server");
const { createProductApi } = await import("../dev/product-api/server");
const prediction = await import("../app/api/v1/prediction/[id]/route");
const { createChatflow } = await import("../lib/services/chatflows");
const { createApiKey } = await import("../lib/services/api-keys");
const { systemCaller, fixtureKeyOwner } = await import("../dev/callers");
const { closeDb } = await import("../lib/db/client");
// getDb() does not migrate: the bench runs the migrate step like start-up does.
await (await import("../lib/db/migrate")).migrateDatabase();

const productApi = await createProductApi();
// The outbound guard only reaches private addresses the operator allowed (the env is read lazily).
process.env.OUTBOUND_ALLOW_HOSTS = new URL(productApi.url).host;
(await import("../lib/env")).resetEnvForTests();
const flows = {
  conversation: (
    await createChatflow({ name: "conversation", graph: exampleFlow("conversation.json").graph as never }, systemCaller)
  ).id,
  "agent (small talk)": (
    await createChatflow(
      {
        name: "agent",
        graph: exampleFlow("product-search-agent.json", { productApiUrl: productApi.url }).graph as never,
      },
      systemCaller,
    )
  ).id,
};
const { key } = await createApiKey(
  { name: "bench", permissions: ["predict"], chatflowIds: [] },
  await fixtureKeyOwner(),
);

function request(id: string, i: number) {
  return new Request(`http://127.0.0.1/api/v1/prediction/${id}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ question: `Hello there ${i}`, overrideConfig: { sessionId: `bench-${i % 50}` } }),
  });
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** Time of a direct call to the model stub: the model's share, subtracted from the totals. */
async function modelRoundTrip(n = 200) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fetch(`${stub.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bench" },
      body: JSON.stringify({ model: "stub-model", messages: [{ role: "user", content: "hi" }], stream: true }),
    }).then((r) => r.text());
    times.push(performance.now() - t);
  }
  return pct(times, 50);
}

async function serverTime(name: string, id: string, n: number, modelCalls: number, modelMs: number) {
  for (let i = 0; i < 30; i++)
    await (await prediction.POST(request(id, i), { params: Promise.resolve({ id }) })).text(); // warm-up: build + JIT
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await prediction.POST(request(id, i), { params: Promise.resolve({ id }) });
    await res.text();
    if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status}`);
    times.push(performance.now() - t);
  }
  const own = times.map((x) => Math.max(0, x - modelCalls * modelMs));
  console.log(
    `${name.padEnd(22)} total p50 ${pct(times, 50).toFixed(2)} ms  p99 ${pct(times, 99).toFixed(2)} ms | own time (minus ${modelCalls} model call${modelCalls > 1 ? "s" : ""}) p50 ${pct(own, 50).toFixed(2)} ms  p99 ${pct(own, 99).toFixed(2)} ms`,
  );
}

async function throughput(id: string, concurrency: number, seconds = 3) {
  const server = await serveRoutes([
    { method: "POST", pattern: /^\/api\/v1\/prediction\/(?<id>[^/]+)$/, handler: prediction.POST as never },
  ]);
  let done = 0;
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let i = w; performance.now() < until; i += concurrency) {
        const r = request(id, i);
        const res = await fetch(`${server.url}/api/v1/prediction/${id}`, {
          method: "POST",
          headers: r.headers,
          body: await r.text(),
        });
        await res.text();
        if (res.ok) done++;
        else failed++;
      }
    }),
  );
  await server.close();
  console.log(
    `  ${String(concurrency).padStart(2)} concurrent clients: ${(done / seconds).toFixed(0)} requests/s${failed ? ` (${failed} failed)` : ""}`,
  );
}

const modelMs = await modelRoundTrip();
console.log(
  `Switchyard prediction benchmark (${os.cpus().length} CPUs, Node ${process.version}, ${process.env.DATABASE_URL?.startsWith("pglite") ? "PGlite" : "PostgreSQL"})`,
);
console.log(`instant model round trip on loopback: p50 ${modelMs.toFixed(2)} ms\n`);
await serverTime("conversation", flows.conversation, 300, 1, modelMs);
await serverTime("agent (small talk)", flows["agent (small talk)"], 300, 1, modelMs);
console.log("\nthroughput over HTTP, conversation flow (API key auth, 2 messages stored per request):");
for (const c of [1, 8, 64]) await throughput(flows.conversation, c);

await Promise.all([stub.close(), productApi.close()]);
await closeDb();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
