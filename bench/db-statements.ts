// `npx tsx bench/db-statements.ts`: the two statements of every prediction (the session's history
// read and the exchange insert) against the embedded database as `npm start` runs it (PGlite on its
// own thread, a data dir on disk, the app's migrations), each unnamed (parsed and planned per call)
// and as a prepared statement (OpenDatabase.sql's `name`), in alternating blocks of one process.
// Prints wall time and this process's CPU (both threads) per statement. Figures, never asserted.
// The app prepares both (SESSION_HISTORY_SQL says why the read could be prepared only once the index
// held its order).
//
// BENCH_ROUNDS (default 20) blocks of BENCH_BLOCK (default 500) statements per kind and variant,
// after BENCH_WARMUP (default 3000) exchanges over BENCH_SESSIONS (default 50) sessions.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadavg } from "./server-process";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 500);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3000);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 50);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-db-statements-"));
process.env.DATA_DIR = dataDir;
process.env.DATABASE_URL = `pglite:${path.join(dataDir, "pglite")}`;
const { startEmbeddedDatabase } = await import("../server/pglite-wire.mjs");
const served = await startEmbeddedDatabase({ dataDir: path.join(dataDir, "pglite") });
process.env.PGLITE_SOCKET = served.socketDir;
const { migrateDatabase } = await import("../lib/db/migrate");
const { getDb, getSql, closeDb } = await import("../lib/db/client");
const { SESSION_HISTORY_SQL, INSERT_EXCHANGE_SQL } = await import("../lib/db/queries/chat-messages");
await migrateDatabase();
const sql = await getSql();
const chatflowId = (await (await getDb()).chatflow.create({ data: { name: "bench", graph: { nodes: [], edges: [] } } }))
  .id;

let n = 0;
const read = (name?: string) => sql(SESSION_HISTORY_SQL, [chatflowId, `s${n++ % SESSIONS}`, 20], name);
const insert = (name?: string) => {
  const i = n++;
  const askedAt = new Date();
  return sql(
    INSERT_EXCHANGE_SQL,
    [
      randomUUID(),
      randomUUID(),
      chatflowId,
      `s${i % SESSIONS}`,
      `s${i % SESSIONS}`,
      `question ${i}`,
      null,
      `an answer of a few words, number ${i}`,
      null,
      null,
      "EXTERNAL",
      "Buffer Memory",
      askedAt.toISOString(),
      new Date(askedAt.getTime() + 1).toISOString(),
      1,
    ],
    name,
  );
};

console.log(`Embedded database statements (PGlite thread, data dir on disk), Node ${process.version}`);
console.log(`load average at start: ${loadavg()}`);
for (let i = 0; i < WARMUP; i++) {
  await read(i % 2 ? "history" : undefined);
  await insert(i % 2 ? "exchange" : undefined);
}
for (const [kind, run] of [
  ["history read", read],
  ["exchange insert", insert],
] as const) {
  const acc = { unnamed: { ms: 0, cpu: 0 }, prepared: { ms: 0, cpu: 0 } };
  for (let r = 0; r < ROUNDS; r++) {
    const variant = r % 2 ? "prepared" : "unnamed";
    const name = variant === "prepared" ? kind.replace(" ", "_") : undefined;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < BLOCK; i++) await run(name);
    acc[variant].ms += performance.now() - t0;
    const c = process.cpuUsage(c0);
    acc[variant].cpu += (c.user + c.system) / 1000;
  }
  const per = (x: number) => `${((x / ((ROUNDS / 2) * BLOCK)) * 1000).toFixed(0)} µs`;
  for (const v of ["unnamed", "prepared"] as const)
    console.log(`  ${kind}, ${v}: wall ${per(acc[v].ms)}, CPU ${per(acc[v].cpu)} per statement`);
}
console.log(`load average at end: ${loadavg()}`);
await closeDb();
await served.close();
fs.rmSync(dataDir, { recursive: true, force: true });
