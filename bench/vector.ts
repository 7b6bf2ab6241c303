// `npm run bench` (second part): vector and keyword store figures on the app database.
// Embeddings are instant (computed in process, no model), so what is measured is our own work:
// record manager planning, inserts in one transaction, pgvector and full-text queries.
// Prints upsert throughput (chunks per second) and query latency (p50/p95) at 10k and 100k stored
// chunks. Figures, not assertions. BENCH_DIMS (default 256) sets the embedding size,
// BENCH_SIZES (default "10000,100000") the store sizes.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-bench-vector-"));
Object.assign(process.env, {
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? "pglite:memory://",
  DATA_DIR: dataDir,
  LOAD_EXAMPLE_FLOWS: "false",
});

const { documentStore } = await import("../lib/services/vector-store-db");
const { createChatflow } = await import("../lib/services/chatflows");
const { systemCaller } = await import("../dev/callers");
const { closeDb } = await import("../lib/db/client");
// getDb() does not migrate: the bench runs the migrate step like start-up does.
await (await import("../lib/db/migrate")).migrateDatabase();

const DIMS = Number(process.env.BENCH_DIMS ?? 256);
const SIZES = (process.env.BENCH_SIZES ?? "10000,100000").split(",").map(Number);
const BATCH = 2000;
const WORDS = Array.from({ length: 3000 }, (_, i) => `term${i.toString(36)}`);

/** A cheap deterministic pseudo-random generator (mulberry32). */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const vectorFor = (seed: number) => {
  const r = rng(seed);
  return Array.from({ length: DIMS }, () => r() * 2 - 1);
};

function chunk(i: number) {
  const r = rng(i + 1_000_000);
  const text = Array.from({ length: 40 }, () => WORDS[Math.floor(r() * WORDS.length)]).join(" ");
  return { pageContent: `chunk ${i}: ${text}`, metadata: { source: `doc-${Math.floor(i / 100)}.md`, index: i } };
}

const instantEmbed = async (texts: string[]) => texts.map((t) => vectorFor(Number(/chunk (\d+)/.exec(t)?.[1] ?? 0)));
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function fill(collection: { chatflowId: string; nodeId: string }, from: number, to: number, embed: boolean) {
  const start = performance.now();
  for (let i = from; i < to; i += BATCH) {
    const documents = Array.from({ length: Math.min(BATCH, to - i) }, (_, k) => chunk(i + k));
    await documentStore.upsert([{ collection, documents, cleanup: "none", ...(embed ? { embed: instantEmbed } : {}) }]);
  }
  return ((to - from) / (performance.now() - start)) * 1000;
}

async function latency(run: (i: number) => Promise<unknown>, n = 30) {
  await run(-1);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run(i);
    times.push(performance.now() - t);
  }
  return `p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms`;
}

const chatflowId = (await createChatflow({ name: "bench" }, systemCaller)).id;
const vector = { chatflowId, nodeId: "vectorStore" };
const keyword = { chatflowId, nodeId: "keywordStore" };
console.log(
  `Switchyard vector store benchmark (${os.cpus().length} CPUs, Node ${process.version}, ${process.env.DATABASE_URL?.startsWith("pglite") ? "PGlite" : "PostgreSQL"}, ${DIMS} dimensions, instant embeddings)`,
);
let stored = 0;
for (const size of SIZES) {
  const vRate = await fill(vector, stored, size, true);
  const kRate = await fill(keyword, stored, size, false);
  stored = size;
  console.log(`\n${size.toLocaleString("en")} chunks stored per store`);
  console.log(
    `  upsert throughput: vector ${vRate.toFixed(0)} chunks/s, keyword ${kRate.toFixed(0)} chunks/s (batches of ${BATCH})`,
  );
  const reupsert = performance.now();
  await documentStore.upsert([
    { collection: keyword, documents: Array.from({ length: BATCH }, (_, k) => chunk(k)), cleanup: "incremental" },
  ]);
  console.log(
    `  re-upsert of ${BATCH} unchanged chunks (all skipped): ${(performance.now() - reupsert).toFixed(0)} ms`,
  );
  console.log(
    `  vector query (top 4, cosine): ${await latency((i) => documentStore.similaritySearch({ collection: vector, vector: vectorFor(9_000_000 + i), k: 4 }))}`,
  );
  console.log(
    `  keyword query (top 4): ${await latency((i) => documentStore.keywordSearch({ collection: keyword, query: `${WORDS[(i * 37) % WORDS.length]} ${WORDS[(i * 101) % WORDS.length]} policy`, k: 4 }))}`,
  );
}

await closeDb();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
