import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import os from "node:os";
import { PGlite } from "@electric-sql/pglite";
import { servePGlite, startEmbeddedDatabase } from "./pglite-wire.mjs";

// The embedded database on its own thread, reached through `pg` as the app reaches it: several
// connections share one PGlite session, so the server must keep their statements and transactions
// apart. Each case below fails if batches of two connections interleave.
let db: Awaited<ReturnType<typeof startEmbeddedDatabase>>;
let pool: pg.Pool;
const connect = () => new pg.Client({ host: db.socketDir, port: 5432, user: "postgres", database: "postgres" });
/** Runs `fn` with `n` connected clients of its own, ended after (ending one twice is a no-op). */
async function withClients(n: number, fn: (clients: pg.Client[]) => Promise<void>) {
  const clients = Array.from({ length: n }, connect);
  await Promise.all(clients.map((c) => c.connect()));
  try {
    await fn(clients);
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}
/** How many prepared statements of the one PGlite session have a name LIKE `like`. */
const preparedCount = async (like: string) =>
  (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE $1", [like]))
    .rows[0].n;

beforeAll(async () => {
  db = await startEmbeddedDatabase({ dataDir: null });
  pool = new pg.Pool({ host: db.socketDir, port: 5432, user: "postgres", database: "postgres", max: 4 });
  await pool.query("CREATE TABLE t (id serial PRIMARY KEY, v text NOT NULL)");
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await db?.close();
});

describe("PGlite served on a worker thread", () => {
  it("answers parameterised queries from several connections at once, each with its own result", async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        pool.query<{ n: number; s: string }>("SELECT $1::int AS n, $2::text AS s", [i, `q${i}`]),
      ),
    );
    expect(results.map((r) => [r.rows[0].n, r.rows[0].s])).toEqual(Array.from({ length: 200 }, (_, i) => [i, `q${i}`]));
    expect(pool.totalCount).toBeGreaterThan(1);
  });

  it("keeps another connection's write out of an open transaction that is rolled back", async () => {
    await withClients(2, async ([a, b]) => {
      await a.query("BEGIN");
      await a.query("INSERT INTO t (v) VALUES ('a-rolled-back')");
      // b's insert is queued behind a's transaction, not run inside it.
      const bInsert = b.query("INSERT INTO t (v) VALUES ('b-kept') RETURNING id");
      let bDone = false;
      void bInsert.then(() => (bDone = true));
      await a.query("SELECT pg_sleep(0.05)");
      expect(bDone).toBe(false);
      await a.query("ROLLBACK");
      await bInsert;
      const { rows } = await pool.query<{ v: string }>("SELECT v FROM t WHERE v IN ('a-rolled-back', 'b-kept')");
      expect(rows.map((r) => r.v)).toEqual(["b-kept"]);
    });
  });

  it("keeps each connection's prepared statements apart: the same name, two texts, many calls", async () => {
    await withClients(2, async ([a, b]) => {
      // Without per-connection names PGlite would answer b's Parse with "prepared statement
      // "same" already exists", or run a's text for b.
      const rows: string[] = [];
      for (let i = 0; i < 40; i++) {
        const both = await Promise.all([
          a.query<{ r: string }>({ name: "same", text: "SELECT 'a' || $1::text AS r", values: [i] }),
          b.query<{ r: string }>({ name: "same", text: "SELECT 'b' || $1::text || '!' AS r", values: [i] }),
        ]);
        rows.push(...both.map((r) => r.rows[0].r));
      }
      expect(rows).toEqual(Array.from({ length: 40 }, (_, i) => [`a${i}`, `b${i}!`]).flat());
      // A statement parsed once and bound many times: both connections' names are in the session.
      const { rows: names } = await a.query<{ name: string; statement: string }>(
        "SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE 'SELECT ''%' ORDER BY statement",
      );
      expect(names).toHaveLength(2);
      expect(names[0].name).not.toBe(names[1].name);
      expect(names.every((n) => n.name.endsWith("_same"))).toBe(true);
    });
  });

  it("closes a connection's prepared statements when it goes away, and keeps the others' statements", async () => {
    await withClients(2, async ([a, b]) => {
      await a.query({ name: "leaving", text: "SELECT 1 AS one", values: [] });
      await b.query({ name: "staying", text: "SELECT 2 AS two", values: [] });
      expect(await preparedCount("%_leaving")).toBe(1);
      await a.end();
      await expect.poll(() => preparedCount("%_leaving")).toBe(0);
      expect(await preparedCount("%_staying")).toBe(1);
      // b's statement still runs (Bind by name, no new Parse).
      expect((await b.query({ name: "staying", text: "SELECT 2 AS two", values: [] })).rows[0].two).toBe(2);
    });
  });

  it("renames statements in Describe and Close too, and the connection still runs unnamed ones", async () => {
    await withClients(1, async ([c]) => {
      // pg sends Describe for a statement only on its own; Close by name it never sends. Both in raw
      // messages: Parse "raw", Describe S "raw", Sync; then Close S "raw", Sync.
      const message = (type: string, body: Buffer) => {
        const head = Buffer.alloc(5);
        head.write(type, 0, "latin1");
        head.writeInt32BE(4 + body.length, 1);
        return Buffer.concat([head, body]);
      };
      const parse = message("P", Buffer.from("raw\0SELECT 42 AS answer\0\0\0", "latin1"));
      const describe = message("D", Buffer.from("Sraw\0", "latin1"));
      const close = message("C", Buffer.from("Sraw\0", "latin1"));
      const sync = message("S", Buffer.alloc(0));
      // biome-ignore lint/suspicious/noExplicitAny: pg's socket is not in its types
      const stream = (c as any).connection.stream as import("node:net").Socket;
      const answer = (bytes: Buffer) =>
        new Promise<Buffer>((resolve) => {
          let got = Buffer.alloc(0);
          const onData = (d: Buffer) => {
            got = Buffer.concat([got, d]);
            if (got.length >= 6 && got[got.length - 6] === 0x5a) {
              stream.off("data", onData);
              resolve(got);
            }
          };
          // pg's own reader would take the answer: listen first, pause pg's parser by removing it.
          stream.prependListener("data", onData);
          stream.write(bytes);
        });
      const listeners = stream.listeners("data");
      for (const l of listeners) stream.off("data", l as (...args: unknown[]) => void);
      try {
        const described = await answer(Buffer.concat([parse, describe, sync]));
        // ParseComplete '1', ParameterDescription 't', RowDescription 'T' naming "answer", no error 'E'.
        expect(described.includes(Buffer.from("answer"))).toBe(true);
        expect(described[0]).toBe(0x31);
        expect(described.includes(0x45)).toBe(false);
        expect(await preparedCount("%_raw")).toBe(1);
        await answer(Buffer.concat([close, sync]));
        expect(await preparedCount("%_raw")).toBe(0);
      } finally {
        for (const l of listeners) stream.on("data", l as (...args: unknown[]) => void);
      }
      // The connection still answers ordinary (unnamed) queries.
      expect((await c.query("SELECT $1::int AS n", [7])).rows[0].n).toBe(7);
    });
  });

  it("rolls back the transaction of a connection that goes away, and serves the others after", async () => {
    const a = connect();
    await a.connect();
    a.on("error", () => {});
    await a.query("BEGIN");
    await a.query("INSERT INTO t (v) VALUES ('abandoned')");
    const waiting = pool.query<{ n: string }>("SELECT count(*) AS n FROM t WHERE v = 'abandoned'");
    (a as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    const { rows } = await waiting;
    expect(rows[0].n).toBe("0");
  });

  it("recovers a failed transaction on ROLLBACK and keeps errors to the connection that made them", async () => {
    const a = connect();
    await a.connect();
    try {
      await a.query("BEGIN");
      await expect(a.query("SELECT * FROM no_such_table")).rejects.toThrow(/no_such_table/);
      const other = pool.query("SELECT 1 AS one");
      await expect(a.query("SELECT 1")).rejects.toThrow(/current transaction is aborted/);
      await a.query("ROLLBACK");
      expect((await other).rows).toEqual([{ one: 1 }]);
    } finally {
      await a.end();
    }
  });

  it("fails to start with a sentence naming the problem when its data dir cannot be opened", async () => {
    const notADir = path.join(db.socketDir, ".s.PGSQL.5432"); // a socket file, not a directory
    await expect(startEmbeddedDatabase({ dataDir: notADir })).rejects.toThrow(/The embedded database could not open/);
  });

  it("keeps a 16MB buffer cache unless PGLITE_SHARED_BUFFERS sets another, and refuses a setting that is not a size", async () => {
    expect((await pool.query("SHOW shared_buffers")).rows[0].shared_buffers).toBe("16MB");
    process.env.PGLITE_SHARED_BUFFERS = "8MB";
    try {
      const other = await startEmbeddedDatabase({ dataDir: null });
      const client = new pg.Client({ host: other.socketDir, port: 5432, user: "postgres", database: "postgres" });
      await client.connect();
      expect((await client.query("SHOW shared_buffers")).rows[0].shared_buffers).toBe("8MB");
      await client.end();
      await other.close();
      process.env.PGLITE_SHARED_BUFFERS = "lots";
      await expect(startEmbeddedDatabase({ dataDir: null })).rejects.toThrow(
        'PGLITE_SHARED_BUFFERS must be a size such as 16MB or 512kB (got "lots")',
      );
    } finally {
      delete process.env.PGLITE_SHARED_BUFFERS;
    }
  }, 60_000);

  it("says when it has answered everything queued, not when a connection leaves (the thread collects its garbage after a quiet spell)", async () => {
    const memory = new PGlite();
    await memory.waitReady;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-idle-"));
    let idle = 0;
    const server = servePGlite(memory, path.join(dir, ".s.PGSQL.5432"), { onIdle: () => idle++ });
    await new Promise((resolve) => server.once("listening", resolve));
    const client = new pg.Client({ host: dir, port: 5432, user: "postgres", database: "postgres" });
    let ended = false;
    try {
      await client.connect();
      const before = idle;
      await Promise.all([client.query("SELECT 1"), client.query("SELECT 2"), client.query("SELECT 3")]);
      expect(idle).toBeGreaterThan(before);
      expect(idle - before).toBeLessThanOrEqual(3);
      // A connection leaving (a pool closing its idle ones) is no work: the quiet spell goes on.
      const afterQueries = idle;
      await client.end();
      ended = true;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(idle).toBe(afterQueries);
    } finally {
      if (!ended) await client.end();
      await new Promise((resolve) => server.close(resolve));
      await memory.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("listens in a directory only its owner may enter (the socket asks no password)", () => {
    expect(fs.statSync(db.socketDir).mode & 0o777).toBe(0o700);
    expect(fs.existsSync(path.join(db.socketDir, ".s.PGSQL.5432"))).toBe(true);
  });
});
