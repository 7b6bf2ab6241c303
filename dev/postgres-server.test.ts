import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type PostgresServer, postgresServerUnavailable, startPostgresServer } from "./postgres-server";

// A real private server: start, write, stop (the port refuses), start again (the data is still there).

const unavailable = postgresServerUnavailable();
let server: PostgresServer | undefined;
afterAll(async () => {
  await server?.cleanup();
});

async function query(url: string, text: string) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

describe.skipIf(unavailable)(
  `private PostgreSQL (dev/postgres-server.ts)${unavailable ? `: ${unavailable}` : ""}`,
  () => {
    it("starts on a free port, survives a stop/start with its data, and cleans up", { timeout: 60_000 }, async () => {
      server = await startPostgresServer();
      expect(server.port).not.toBe(5432);
      expect(server.running()).toBe(true);
      await query(server.url, "CREATE TABLE t (v text); INSERT INTO t VALUES ('kept')");

      await server.stop();
      expect(server.running()).toBe(false);
      await expect(query(server.url, "SELECT 1")).rejects.toMatchObject({ code: "ECONNREFUSED" });

      await server.start();
      expect(await query(server.url, "SELECT v FROM t")).toEqual([{ v: "kept" }]);

      // A crash-like stop loses nothing committed either (fsync is off, but the OS keeps the pages).
      await server.stop("immediate");
      await server.start();
      expect(await query(server.url, "SELECT count(*)::int AS n FROM t")).toEqual([{ n: 1 }]);

      const dir = server.dataDir;
      await server.cleanup();
      server = undefined;
      const fs = await import("node:fs");
      expect(fs.existsSync(dir)).toBe(false);
    });
  },
);
