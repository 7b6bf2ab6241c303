// "PostgreSQL restarted" (issue 12), at the service level: the app's database client (getDb: Prisma
// over @prisma/adapter-pg, getSql: a pg Pool) pointed at a server that goes away and comes back.
// While it is down a query fails (and the process survives the dropped idle connections); after it
// is back the SAME process's next query succeeds, without a restart. The embedded-with-PostgreSQL
// and queue modes (API and worker processes) use this same client.
//   - a private server (dev/postgres-server.ts): a real `pg_ctl stop` / `start`;
//   - the file's database behind a TCP fault proxy (dev/tcp-proxy.ts): connections cut, port closed.
// Only in the PostgreSQL pass (TEST_PG_URL); PGlite runs in-process and cannot restart.
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type PostgresServer, postgresServerUnavailable, startPostgresServer } from "../../dev/postgres-server";
import { startTcpProxy, type TcpProxy } from "../../dev/tcp-proxy";
import { closeDb, getSql } from "../../lib/db/client";
import { migrateDatabase } from "../../lib/db/migrate";
import { countChatflows, insertChatflow } from "../../lib/db/queries/chatflows";
import { resetEnvForTests } from "../../lib/env";

const pgUrl = process.env.TEST_PG_URL;
const noPg = pgUrl ? null : "TEST_PG_URL is unset: the PGlite pass has no server to restart";
const noPrivate = noPg ?? postgresServerUnavailable();

const originalUrl = process.env.DATABASE_URL;

/** Points the app's client at another DATABASE_URL (a fresh client, migrated). */
async function useDatabase(url: string) {
  await closeDb();
  process.env.DATABASE_URL = url;
  resetEnvForTests();
  await migrateDatabase();
}

async function restoreDatabase() {
  await closeDb();
  process.env.DATABASE_URL = originalUrl;
  resetEnvForTests();
}

/** Both ways the app reads: Prisma (most queries) and plain SQL (the prediction hot path). */
async function readBoth() {
  const viaPrisma = await countChatflows();
  const [row] = await (await getSql())<{ n: number }>('SELECT count(*)::int AS n FROM "Chatflow"', []);
  return { viaPrisma, viaSql: row.n };
}

/** Settles a promise to its outcome, so a failure can be inspected. */
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => ({ ok: true as const }),
    (err: unknown) => ({ ok: false as const, err }),
  );

/** Text of an error and its causes: what a mapping to 503 database_unavailable would look at. */
function describeError(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let i = 0; e && i < 5; i++) {
    const x = e as { name?: string; code?: string; message?: string; cause?: unknown };
    parts.push(`${x.name ?? ""} ${x.code ?? ""} ${x.message ?? String(e)}`);
    e = x.cause;
  }
  return parts.join(" <- ");
}

// A connection failure, in any of the forms node-postgres and the Prisma adapter report it.
const CONNECTION_FAILURE =
  /ECONNREFUSED|ECONNRESET|Connection terminated|terminating connection|server closed the connection|DatabaseNotReachable|Can't reach database|57P01|connection/i;

const insertOne = (name: string) => insertChatflow({ data: { name, graph: { nodes: [], edges: [] } } });

describe.skipIf(noPrivate)(
  `a private PostgreSQL server restarted${noPrivate ? ` (skipped: ${noPrivate})` : ""}`,
  () => {
    let server: PostgresServer;
    beforeAll(async () => {
      server = await startPostgresServer();
      await useDatabase(server.url);
    }, 60_000);
    afterAll(async () => {
      await restoreDatabase();
      await server?.cleanup();
    });

    it("fails queries while it is down, and the same process reads and writes again once it is back", async () => {
      await insertOne("before the restart");
      expect(await readBoth()).toEqual({ viaPrisma: 1, viaSql: 1 }); // the pools now hold open connections

      await server.stop("fast"); // terminates every session: the pools' idle connections die
      const prismaDown = await outcome(countChatflows());
      const sqlDown = await outcome(getSql().then((sql) => sql("SELECT 1", [])));
      expect(prismaDown.ok).toBe(false);
      expect(sqlDown.ok).toBe(false);
      if (!prismaDown.ok) expect(describeError(prismaDown.err)).toMatch(CONNECTION_FAILURE);
      if (!sqlDown.ok) expect(describeError(sqlDown.err)).toMatch(CONNECTION_FAILURE);
      // What a 503 database_unavailable mapping sees: Prisma's P1001 (can't reach the server), pg's ECONNREFUSED.
      expect(prismaDown.ok || (prismaDown.err as { code?: string }).code).toBe("P1001");
      expect(sqlDown.ok || (sqlDown.err as { code?: string }).code).toBe("ECONNREFUSED");

      await server.start();
      // The very next queries succeed: no retry loop here, no new client.
      expect(await readBoth()).toEqual({ viaPrisma: 1, viaSql: 1 });
      await insertOne("after the restart");
      expect(await readBoth()).toEqual({ viaPrisma: 2, viaSql: 2 });
    });

    it("recovers from a crash-like stop (immediate) too", async () => {
      const before = await readBoth();
      await server.stop("immediate");
      expect((await outcome(countChatflows())).ok).toBe(false);
      await server.start();
      expect(await readBoth()).toEqual(before);
    });
  },
);

describe.skipIf(noPg)(`the database behind a TCP fault proxy${noPg ? ` (skipped: ${noPg})` : ""}`, () => {
  let proxy: TcpProxy;
  beforeAll(async () => {
    const url = new URL(originalUrl ?? "");
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    await useDatabase(url.toString());
  }, 60_000);
  afterEach(async () => {
    await proxy.up();
  });
  afterAll(async () => {
    await restoreDatabase();
    await proxy?.close();
  });

  it("fails queries while connections are cut and refused, and the next query after up() succeeds", async () => {
    const before = await readBoth();
    await proxy.down();
    const prismaDown = await outcome(countChatflows());
    const sqlDown = await outcome(getSql().then((sql) => sql("SELECT 1", [])));
    expect(prismaDown.ok).toBe(false);
    expect(sqlDown.ok).toBe(false);
    if (!prismaDown.ok) expect(describeError(prismaDown.err)).toMatch(CONNECTION_FAILURE);
    await proxy.up();
    expect(await readBoth()).toEqual(before);
  });

  it("a query in flight when the connection is cut fails, and the next one succeeds", async () => {
    const inFlight = outcome(getSql().then((sql) => sql("SELECT pg_sleep(5)", [])));
    // Wait until the query has reached the server before cutting.
    const admin = new pg.Client({ connectionString: originalUrl });
    await admin.connect();
    try {
      await expect
        .poll(
          async () =>
            (
              await admin.query(
                "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(5)' AND state = 'active'",
              )
            ).rows[0].n,
          { timeout: 5_000 },
        )
        .toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // The other pool's idle connection is cut in the same instant; a query handed that socket before
    // node has read its close would fail like any query racing a cut. down() resolves once every
    // client has read its cut (the pools have dropped the dead clients), as they long have by the
    // time a real request comes.
    await proxy.down();
    expect((await inFlight).ok).toBe(false);
    await proxy.up();
    const after = await readBoth();
    expect(after.viaPrisma).toBe(after.viaSql);
  });
});
