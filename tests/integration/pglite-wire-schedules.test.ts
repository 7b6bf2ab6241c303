import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servePGlite } from "../../server/pglite-wire.mjs";

// server/pglite-wire.mjs multiplexes many `pg` connections onto one PGlite session: a connection
// with a transaction open has the session to itself (the others' batches wait), each connection's
// prepared statements are renamed apart, and a connection that leaves has its transaction rolled
// back and its statements closed. Property: for random schedules of statements from three
// connections (transactions committed and rolled back, constraint and runtime errors inside and
// outside them, named prepared statements, disconnects mid-transaction), every statement answers
// what the same statements answer on a real PostgreSQL server when run there one at a time in the
// order the wire server ran them, and the table ends the same. Runs where a PostgreSQL server is given
// (TEST_PG_URL: npm test's PostgreSQL step); FC_SEED / FC_RUNS replay or widen it.

const serverUrl = process.env.TEST_PG_URL;
const RUNS = Number(process.env.FC_RUNS ?? 100);
const SEED = process.env.FC_SEED === undefined ? 20261202 : Number(process.env.FC_SEED);
const CONNECTIONS = 3;

type Op =
  | { kind: "begin" | "commit" | "rollback" | "select" | "divideByZero" | "disconnect" }
  | { kind: "insert" | "update"; k: number; v: number }
  | { kind: "delete" | "prepared"; k: number };
type Step = { conn: number; op: Op };
/** What a statement answered: its rows, or the SQLSTATE of its error; null for a step not run. */
type Outcome = { rows: unknown[] } | { error: string } | null;

const key = fc.integer({ min: 1, max: 4 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: "begin" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "commit" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "rollback" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "select" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "divideByZero" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "disconnect" as const }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("insert" as const), k: key, v: fc.integer({ min: 0, max: 99 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("update" as const), k: key, v: fc.integer({ min: 0, max: 99 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), k: key }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("prepared" as const), k: key }) },
);
const scheduleArb = fc.array(fc.record({ conn: fc.integer({ min: 0, max: CONNECTIONS - 1 }), op: opArb }), {
  minLength: 1,
  maxLength: 40,
});

/** The statement of a step; `marker` (a comment naming the step) lets the wire server's log say when it ran. */
function statement(op: Op, marker: string): pg.QueryConfig | null {
  const tag = `/*${marker}*/ `;
  switch (op.kind) {
    case "begin":
      return { text: `${tag}BEGIN` };
    case "commit":
      return { text: `${tag}COMMIT` };
    case "rollback":
      return { text: `${tag}ROLLBACK` };
    case "select":
      return { text: `${tag}SELECT k, v FROM kv ORDER BY k` };
    case "divideByZero":
      return { text: `${tag}SELECT 1 / 0 AS x` };
    case "insert":
      return { text: `${tag}INSERT INTO kv (k, v) VALUES ($1, $2) RETURNING k, v`, values: [op.k, op.v] };
    case "update":
      return { text: `${tag}UPDATE kv SET v = $2 WHERE k = $1 RETURNING k, v`, values: [op.k, op.v] };
    case "delete":
      return { text: `${tag}DELETE FROM kv WHERE k = $1 RETURNING k`, values: [op.k] };
    case "prepared":
      // A named statement: parsed once per connection, as the app's hot-path inserts are.
      return { name: "by_key", text: "SELECT k, v FROM kv WHERE k = $1", values: [op.k] };
    case "disconnect":
      return null;
  }
}

async function outcomeOf(run: Promise<pg.QueryResult>): Promise<Outcome> {
  try {
    return { rows: (await run).rows };
  } catch (err) {
    return { error: (err as { code?: string }).code ?? String(err) };
  }
}

let db: PGlite;
let server: ReturnType<typeof servePGlite>;
let socketDir: string;
/** The steps in the order the wire server ran them (read from each batch's marker). */
let ran: number[] = [];

beforeAll(async () => {
  if (!serverUrl) return;
  db = new PGlite();
  await db.waitReady;
  socketDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-wire-schedules-"));
  const decoder = new TextDecoder();
  // The session as the wire server sees it, logging each batch's step marker as it runs.
  const logged = {
    execProtocolRaw: (bytes: Uint8Array) => {
      const marker = /\/\*step:(\d+)\*\//.exec(decoder.decode(bytes));
      if (marker) ran.push(Number(marker[1]));
      return db.execProtocolRaw(bytes);
    },
  };
  server = servePGlite(logged, path.join(socketDir, ".s.PGSQL.5432"));
  await new Promise((r) => server.once("listening", r));
});

afterAll(async () => {
  if (!serverUrl) return;
  await new Promise((r) => server.close(r));
  await db.close();
  fs.rmSync(socketDir, { recursive: true, force: true });
});

const wireClient = () => new pg.Client({ host: socketDir, port: 5432, user: "postgres", database: "postgres" });
const serverClient = () => new pg.Client({ connectionString: process.env.DATABASE_URL });

async function freshTable(connect: () => pg.Client) {
  const c = connect();
  await c.connect();
  await c.query("DROP TABLE IF EXISTS kv; CREATE TABLE kv (k int PRIMARY KEY, v int NOT NULL)");
  await c.end();
}

async function tableOf(connect: () => pg.Client) {
  const c = connect();
  await c.connect();
  const { rows } = await c.query("SELECT k, v FROM kv ORDER BY k");
  await c.end();
  return rows;
}

/**
 * Runs a schedule on the wire server, following the server's own rule to know what it can run now:
 * `pg` sends a connection's next statement only once its last one is answered, the server runs what
 * arrived in order, except that while a connection has a transaction open only that connection's
 * statements run. A step is awaited only when that rule lets it run, so a server that broke the rule
 * would hang here (the test's timeout) or answer differently from PostgreSQL below. Open
 * transactions left at the end are rolled back by steps added to the schedule. Returns the schedule
 * run (with those steps), each step's outcome (null: a disconnect skipped because its connection was
 * busy, as a pool never drops a busy connection) and the order in which the steps ran.
 */
async function runOnWire(schedule: Step[]): Promise<{ steps: Step[]; outcomes: Outcome[]; order: number[] }> {
  const steps = [...schedule];
  ran = [];
  const order: number[] = [];
  const clients = await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const c = wireClient();
      await c.connect();
      return c;
    }),
  );
  const outcomes: Outcome[] = [];
  let owner: number | null = null;
  /** Statements sent and not yet answered, in the order they reached the server. */
  const atServer: { index: number; done: Promise<Outcome> }[] = [];
  /** Per connection: statements `pg` holds back until the one before is answered. */
  const heldBack: number[][] = Array.from({ length: CONNECTIONS }, () => []);
  const busy = (conn: number) => atServer.some((s) => steps[s.index].conn === conn) || heldBack[conn].length > 0;
  const send = (index: number) => {
    const { conn, op } = steps[index];
    atServer.push({ index, done: outcomeOf(clients[conn].query(statement(op, `step:${index}`)!)) });
  };
  /** Awaits what the server may run now, in its order, until what is left waits for a transaction. */
  const drain = async () => {
    for (;;) {
      const i = owner === null ? 0 : atServer.findIndex((s) => steps[s.index].conn === owner);
      if (i < 0 || !atServer.length) return;
      const [{ index, done }] = atServer.splice(i, 1);
      const outcome = await done;
      const { conn, op } = steps[index];
      outcomes[index] = outcome;
      // A reconnection's start-up waits like a statement; the disconnect was placed when it happened.
      if (op.kind !== "disconnect") order.push(index);
      if (op.kind === "begin" && outcome && "rows" in outcome) owner = conn;
      if ((op.kind === "commit" || op.kind === "rollback") && owner === conn) owner = null;
      const next = heldBack[conn].shift();
      if (next !== undefined) send(next);
    }
  };
  const run = async (index: number) => {
    const { conn, op } = steps[index];
    if (op.kind === "disconnect") {
      outcomes[index] = null;
      if (busy(conn)) return void (await drain());
      order.push(index);
      await clients[conn].end();
      // The server rolls back what the connection left open before anything else runs.
      if (owner === conn) owner = null;
      // The new connection's start-up is one more batch for the server: it waits behind another
      // connection's open transaction, and this connection's next statements wait for it.
      const fresh = wireClient();
      clients[conn] = fresh;
      atServer.push({ index, done: fresh.connect().then(() => null) });
    } else if (busy(conn)) heldBack[conn].push(index);
    else send(index);
    await drain();
  };
  for (let index = 0; index < steps.length; index++) await run(index);
  while (owner !== null) {
    steps.push({ conn: owner, op: { kind: "rollback" } });
    await run(steps.length - 1);
  }
  await Promise.all(clients.map((c) => c.end()));
  return { steps, outcomes, order };
}

/** Runs the steps on PostgreSQL one at a time, in `order`. */
async function runOnServer(steps: Step[], order: number[]): Promise<Outcome[]> {
  const clients = await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const c = serverClient();
      await c.connect();
      return c;
    }),
  );
  const outcomes: Outcome[] = steps.map(() => null);
  for (const index of order) {
    const { conn, op } = steps[index];
    if (op.kind === "disconnect") {
      // What the server does when a connection leaves mid-transaction, done before the next statement.
      await clients[conn].query("ROLLBACK").catch(() => {});
      await clients[conn].end();
      clients[conn] = serverClient();
      await clients[conn].connect();
      continue;
    }
    outcomes[index] = await outcomeOf(clients[conn].query(statement(op, `step:${index}`)!));
  }
  for (const c of clients) await c.query("ROLLBACK").catch(() => {});
  await Promise.all(clients.map((c) => c.end()));
  return outcomes;
}

// Skipped in the PGlite runs of npm test: the replay needs a PostgreSQL server, and npm test's
// PostgreSQL step (TEST_PG_URL) runs it.
describe.skipIf(!serverUrl)("the PGlite wire server against PostgreSQL (server/pglite-wire.mjs)", () => {
  it("answers random schedules of three connections as PostgreSQL answers them run in the same order", async () => {
    let schedules = 0;
    await fc.assert(
      fc.asyncProperty(scheduleArb, async (steps) => {
        schedules++;
        await freshTable(wireClient);
        await freshTable(serverClient);
        const wire = await runOnWire(steps);
        // The server's own log of the statements it ran (prepared ones carry no marker) agrees.
        expect(ran).toEqual(wire.order.filter((i) => !["prepared", "disconnect"].includes(wire.steps[i].op.kind)));
        const expected = await runOnServer(wire.steps, wire.order);
        expect(wire.outcomes).toEqual(expected);
        expect(await tableOf(wireClient)).toEqual(await tableOf(serverClient));
        // Nothing a connection prepared outlives it in the one session.
        const probe = wireClient();
        await probe.connect();
        const { rows } = await probe.query("SELECT count(*)::int AS n FROM pg_prepared_statements");
        await probe.end();
        expect(rows[0].n).toBe(0);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    expect(schedules).toBe(RUNS);
  }, 120_000);
});
