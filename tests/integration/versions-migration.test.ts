// The versions migration gives every existing chatflow a version 1 holding its current graph and
// run settings (never published: it keeps running its latest state), on PGlite and, with
// TEST_PG_URL, on a throwaway PostgreSQL database.
import fs from "node:fs";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase, parseDatabaseUrl } from "../../lib/db/connection";
import { deployMigrations } from "../../lib/db/migrations";
import { migrationRoot } from "../support/migration-root";

const VERSIONS = "20261126190709_chatflow_versions";

/** An empty database: in-memory PGlite, or a new database on TEST_PG_URL's server (dropped after). */
async function emptyDatabase() {
  const server = process.env.TEST_PG_URL;
  if (!server) return { db: await openDatabase({ kind: "pglite", dataDir: null }), drop: async () => {} };
  const name = `switchyard_vmig_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const drop = async () => {
    const c = new pg.Client({ connectionString: server });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.end();
  };
  return { db: await openDatabase(parseDatabaseUrl(url.toString())), drop };
}

describe("the chatflow versions migration", () => {
  it("stores each existing chatflow's current state as its version 1 and numbers it 1", {
    timeout: 120_000,
  }, async () => {
    const { db, drop } = await emptyDatabase();
    const root = migrationRoot(VERSIONS, false);
    try {
      await db.withEngineFactory((engine) => deployMigrations(engine, root));
      await db.sql(
        `INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt") VALUES ('00000000-0000-4000-8000-000000000001', 'a@m.test', 'Ada', 'h', 'admin'::"Role", now())`,
        [],
      );
      await db.sql(
        `INSERT INTO "Chatflow" (id, name, graph, version, "overrideAllowList", "chatbotConfig", "speechToText", "ownerId", "updatedAt")
         VALUES ('00000000-0000-4000-8000-0000000000f1', 'saved seven times', '{"nodes":[],"edges":[],"notes":[]}', 7,
                 '{temperature}', '{"title":"Hi"}', '{"enabled":false}', '00000000-0000-4000-8000-000000000001', '2026-01-02T03:04:05Z')`,
        [],
      );
      await db.sql(
        `INSERT INTO "Chatflow" (id, name, graph, "updatedAt") VALUES ('00000000-0000-4000-8000-0000000000f2', 'unowned', '{"nodes":[],"edges":[]}', now())`,
        [],
      );

      expect(
        await db.withEngineFactory((engine) => deployMigrations(engine, migrationRoot(VERSIONS, true, root))),
      ).toEqual([VERSIONS]);
      expect(
        await db.sql(
          `SELECT name, version, "publishedVersion", "requirePassingTests" FROM "Chatflow" ORDER BY name`,
          [],
        ),
      ).toEqual([
        { name: "saved seven times", version: 1, publishedVersion: null, requirePassingTests: false },
        { name: "unowned", version: 1, publishedVersion: null, requirePassingTests: false },
      ]);
      const versions = await db.sql<Record<string, unknown>>(
        `SELECT "chatflowId", version, graph, "overrideAllowList", "chatbotConfig", "speechToText", "authorId",
                "authorName", message, "createdAt" = '2026-01-02T03:04:05Z'::timestamp AS "atLastSave"
         FROM "ChatflowVersion" ORDER BY "chatflowId"`,
        [],
      );
      expect(versions).toEqual([
        {
          chatflowId: "00000000-0000-4000-8000-0000000000f1",
          version: 1,
          graph: { nodes: [], edges: [], notes: [] },
          overrideAllowList: ["temperature"],
          chatbotConfig: { title: "Hi" },
          speechToText: { enabled: false },
          authorId: "00000000-0000-4000-8000-000000000001",
          authorName: "Ada",
          message: "Saved before versions existed",
          atLastSave: true,
        },
        expect.objectContaining({ chatflowId: "00000000-0000-4000-8000-0000000000f2", version: 1, authorId: null }),
      ]);
    } finally {
      await db.close();
      await drop();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
