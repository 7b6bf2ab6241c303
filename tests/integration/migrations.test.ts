import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase, parseDatabaseUrl } from "../../lib/db/connection";
import { deployMigrations, diffMigrationsToSchema, migrationStatus } from "../../lib/db/migrations";

/** A new, empty database on the server (dropped by `drop`). */
async function createEmptyDatabase(serverUrl: string) {
  const name = `switchyard_mig_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
  return { url, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

describe("migrations", () => {
  it("apply on an empty database and are a no-op the second time", { timeout: 120_000 }, async () => {
    // The setup file migrates each file's database, so this test makes an empty one of its own:
    // a PGlite data dir, or a new database on the TEST_PG_URL server.
    const serverUrl = process.env.TEST_PG_URL;
    const empty = serverUrl ? await createEmptyDatabase(serverUrl) : undefined;
    const target = empty
      ? parseDatabaseUrl(empty.url)
      : { kind: "pglite" as const, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "sy-mig-")) };
    const db = await openDatabase(target);
    try {
      const first = await db.withEngineFactory((engine) => deployMigrations(engine));
      expect(first.length).toBeGreaterThan(0);
      // The pgvector table is a migration step too: recorded everywhere, its table made only where
      // the server has the extension (PGlite does, this machine's PostgreSQL server does not).
      expect(first).toContain("20261125120000_document_chunk_embeddings");
      const [{ vector }] = await db.sql<{ vector: boolean }>(
        "SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS vector",
        [],
      );
      const [{ found }] = await db.sql<{ found: boolean }>(
        "SELECT to_regclass('document_chunk_embeddings') IS NOT NULL AS found",
        [],
      );
      expect(found).toBe(vector);
      expect(await db.withEngineFactory((engine) => deployMigrations(engine))).toEqual([]);
      const status = await db.withEngineFactory((engine) => migrationStatus(engine));
      expect(status.history).toBeNull();
      expect(status.failedMigrationNames).toEqual([]);
    } finally {
      await db.close();
      await empty?.drop();
    }
  });

  // Replays every migration on a shadow database and diffs: slow on a loaded machine.
  it("match the Prisma schema (no migration is missing)", { timeout: 120_000 }, async () => {
    const db = await openDatabase({ kind: "pglite", dataDir: null });
    try {
      expect(await db.withEngineFactory((engine) => diffMigrationsToSchema(engine))).toBeNull();
    } finally {
      await db.close();
    }
  });
});
