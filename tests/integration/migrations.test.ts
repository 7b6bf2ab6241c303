import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase, parseDatabaseUrl } from "../../lib/db/connection";
import { deployMigrations, diffMigrationsToSchema, migrationStatus } from "../../lib/db/migrations";

describe("migrations", () => {
  it("apply on an empty database and are a no-op the second time", { timeout: 120_000 }, async () => {
    // The setup file gives each test file a fresh database: PGlite in memory or a new PostgreSQL database.
    const url = process.env.DATABASE_URL!;
    const target = url.startsWith("pglite:") ? { kind: "pglite" as const, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "sy-mig-")) } : parseDatabaseUrl(url);
    const db = await openDatabase(target);
    try {
      const first = await deployMigrations(db.factory);
      expect(first.length).toBeGreaterThan(0);
      // The pgvector table is a migration step too: recorded everywhere, its table made only where
      // the server has the extension (PGlite does, this machine's PostgreSQL server does not).
      expect(first).toContain("20261125120000_document_chunk_embeddings");
      const [{ vector }] = await db.sql<{ vector: boolean }>("SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS vector", []);
      const [{ found }] = await db.sql<{ found: boolean }>("SELECT to_regclass('document_chunk_embeddings') IS NOT NULL AS found", []);
      expect(found).toBe(vector);
      expect(await deployMigrations(db.factory)).toEqual([]);
      const status = await migrationStatus(db.factory);
      expect(status.history).toBeNull();
      expect(status.failedMigrationNames).toEqual([]);
    } finally {
      await db.close();
    }
  });

  // Replays every migration on a shadow database and diffs: slow on a loaded machine.
  it("match the Prisma schema (no migration is missing)", { timeout: 120_000 }, async () => {
    const db = await openDatabase({ kind: "pglite", dataDir: null });
    try {
      expect(await diffMigrationsToSchema(db.factory)).toBeNull();
    } finally {
      await db.close();
    }
  });
});
