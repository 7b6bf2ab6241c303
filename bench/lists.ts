// `npm run bench:lists`: latency of the domain list and the Message API with 1,000,000 domains and
// 1,000,000 messages, through the real route handlers (auth by API key, zod parsing, queries, JSON).
// PostgreSQL by default (BENCH_PG_URL, a fresh database that is dropped at the end); `--pglite`
// runs on in-memory PGlite. Prints p50/p95 per query. Figures, not assertions.
// BENCH_KEEP_DB=1 keeps the seeded PostgreSQL database (its name is printed, for EXPLAIN ANALYZE);
// BENCH_DB=<name> measures a kept database again (migrates it, does not seed it, keeps it).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const usePglite = process.argv.includes("--pglite");
const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 1_000_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const serverUrl = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const reuseDb = usePglite ? undefined : process.env.BENCH_DB;
const keepDb = Boolean(reuseDb) || process.env.BENCH_KEEP_DB === "1";
const dbName = reuseDb ?? `switchyard_bench_${process.pid}`;

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  await c.query(sql);
  await c.end();
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-bench-lists-"));
let databaseUrl = "pglite:memory://";
if (!usePglite) {
  if (!reuseDb) await admin(`CREATE DATABASE "${dbName}"`);
  const u = new URL(serverUrl);
  u.pathname = `/${dbName}`;
  databaseUrl = u.toString();
}
Object.assign(process.env, { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOAD_EXAMPLE_FLOWS: "false" });

const { getDb, closeDb } = await import("../lib/db/client");
// getDb() does not migrate: the bench runs the migrate step like start-up does.
await (await import("../lib/db/migrate")).migrateDatabase();
const { createChatflow } = await import("../lib/services/chatflows");
const { createApiKey } = await import("../lib/services/api-keys");
const { systemCaller, fixtureKeyOwner } = await import("../dev/callers");
const domains = await import("../app/api/v1/domains/route");
const messages = await import("../app/api/v1/chatmessage/[id]/route");

const db = await getDb();
let flows: string[] = [];
let t = performance.now();
if (reuseDb) {
  const rows = await db.chatflow.findMany({
    where: { name: { startsWith: "bench " } },
    select: { id: true, name: true },
  });
  flows = rows.sort((a, b) => Number(a.name.slice(6)) - Number(b.name.slice(6))).map((r) => r.id);
  console.log(`Reusing database ${dbName} (${flows.length} bench chatflows).\n`);
} else {
  for (let i = 0; i < 20; i++) flows.push((await createChatflow({ name: `bench ${i}` }, systemCaller)).id);
  console.log(
    `Seeding ${DOMAINS.toLocaleString()} domains and ${MESSAGES.toLocaleString()} messages on ${usePglite ? "PGlite" : "PostgreSQL"}…`,
  );
  t = performance.now();
  // Words make names and analyses searchable; a third analysed, a tenth invalid.
  await db.$executeRawUnsafe(`
    INSERT INTO "Domain" (id, name, "isValid", "validationError", "analysisText", "analyzedAt", "analysisStatus", "createdAt", "updatedAt")
    SELECT gen_random_uuid(),
      (ARRAY['shop','news','bank','mail','blog','cloud','games','travel'])[1 + i % 8] || '-' || i || '.' || (ARRAY['com','org','net','de','co.uk'])[1 + i % 5],
      i % 10 <> 0, CASE WHEN i % 10 = 0 THEN 'not a known public suffix' END,
      CASE WHEN i % 3 = 0 THEN 'A ' || (ARRAY['retail','media','finance','hosting'])[1 + i % 4] || ' site number ' || i END,
      CASE WHEN i % 3 = 0 THEN now() - (i || ' seconds')::interval END,
      CASE WHEN i % 3 = 0 THEN 'succeeded'::"DomainAnalysisStatus" END,
      now() - (i || ' seconds')::interval, now()
    FROM generate_series(1, ${DOMAINS}) AS i`);
  const chatflowArray = `ARRAY[${flows.map((f) => `'${f}'::uuid`).join(",")}]`;
  // Sessions of 10 messages, spread over 20 chatflows and about a year.
  await db.$executeRawUnsafe(`
    INSERT INTO "ChatMessage" (id, "chatflowId", "sessionId", "chatId", role, content, "chatType", "createdAt")
    SELECT gen_random_uuid(), (${chatflowArray})[1 + (i / 10) % 20], 's-' || (i / 10), 'c-' || (i / 10),
      CASE WHEN i % 2 = 0 THEN 'userMessage'::"MessageRole" ELSE 'apiMessage'::"MessageRole" END,
      'message ' || i, CASE WHEN (i / 10) % 4 = 0 THEN 'INTERNAL'::"ChatType" ELSE 'EXTERNAL'::"ChatType" END,
      timestamp '2025-01-01' + (i * 30 || ' seconds')::interval
    FROM generate_series(0, ${MESSAGES - 1}) AS i`);
  await db.$executeRawUnsafe(`VACUUM ANALYZE "Domain"`);
  await db.$executeRawUnsafe(`VACUUM ANALYZE "ChatMessage"`);
  console.log(`Seeded in ${((performance.now() - t) / 1000).toFixed(1)} s.\n`);
}
const { key } = await createApiKey(
  { name: `bench ${process.pid}`, permissions: ["domains", "messages"], chatflowIds: [] },
  await fixtureKeyOwner(),
);
if (keepDb) console.log(`Database kept: ${dbName}\n`);

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function measure(label: string, handler: Handler, url: string, params: Record<string, string> = {}) {
  const call = async () => {
    const res = await handler(new Request(`http://127.0.0.1${url}`, { headers: { authorization: `Bearer ${key}` } }), {
      params: Promise.resolve(params),
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${label}: HTTP ${res.status} ${body.slice(0, 200)}`);
    return body;
  };
  for (let i = 0; i < 3; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    t = performance.now();
    await call();
    times.push(performance.now() - t);
  }
  console.log(
    `${label.padEnd(58)} p50 ${pct(times, 50).toFixed(1).padStart(7)} ms   p95 ${pct(times, 95).toFixed(1).padStart(7)} ms`,
  );
}

console.log("GET /api/v1/domains (limit 20)");
const d = (q: string) => `/api/v1/domains${q}`;
await measure("  no parameters (first page, newest first)", domains.GET, d(""));
await measure("  hasAnalysis=true", domains.GET, d("?hasAnalysis=true"));
await measure("  hasAnalysis=not_analyzed&isValid=true", domains.GET, d("?hasAnalysis=not_analyzed&isValid=true"));
await measure("  isValid=false&sort=name", domains.GET, d("?isValid=false&sort=name"));
await measure("  searchTerm=bank-4242", domains.GET, d("?searchTerm=bank-4242"));
await measure("  searchTerm=finance&hasAnalysis=true", domains.GET, d("?searchTerm=finance&hasAnalysis=true"));
await measure("  page=500", domains.GET, d("?page=500"));
await measure("  sort=analyzedAt&limit=100", domains.GET, d("?sort=analyzedAt&limit=100"));

const flow = flows[3];
const m = (q: string) => `/api/v1/chatmessage/${flow}${q}`;
console.log(`\nGET /api/v1/chatmessage/{id} (one of 20 chatflows, ${(MESSAGES / 20).toLocaleString()} messages)`);
await measure("  sessionId (one session)", messages.GET, m("?sessionId=s-3"), { id: flow });
await measure(
  "  startDate/endDate one day, DESC",
  messages.GET,
  m("?startDate=2025-01-20&endDate=2025-01-20&sort=DESC"),
  { id: flow },
);
await measure("  chatType=INTERNAL&limit=100", messages.GET, m("?chatType=INTERNAL&limit=100"), { id: flow });
await measure("  limit=100&page=200", messages.GET, m("?limit=100&page=200"), { id: flow });
await measure("  no parameters (first 1,000 of the chatflow)", messages.GET, m(""), { id: flow });

await closeDb();
if (!usePglite && !keepDb) await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
