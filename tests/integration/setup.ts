// Runs before every integration test file: a private database per file, so files can run in
// parallel. In-memory PGlite by default; with TEST_PG_URL (postgresql://…/postgres) a fresh
// database on that server, dropped when the file ends.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import pg from "pg";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-test-"));
process.env.DATA_DIR = dataDir;
process.env.LOAD_EXAMPLE_FLOWS = "false";
process.env.NEXTAUTH_URL = "http://127.0.0.1:3000";
// The tests' model stubs and demo APIs listen on 127.0.0.1 (random ports): the operator allowance
// for private addresses is on here, explicitly; tests/security/* turn it off to check the guard.
process.env.OUTBOUND_ALLOW_PRIVATE ??= "true";

const serverUrl = process.env.TEST_PG_URL;
let dropDatabase: (() => Promise<void>) | undefined;

if (serverUrl) {
  const name = `switchyard_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.end();
  };
} else {
  process.env.DATABASE_URL = "pglite:memory://";
  // TEST_PGLITE_THREAD=true: the embedded database on its own thread, reached over its socket, as
  // `npm start` runs it (server/pglite-wire.mjs).
  if (process.env.TEST_PGLITE_THREAD === "true") {
    const { startEmbeddedDatabase } = await import("../../server/pglite-wire.mjs");
    const served = await startEmbeddedDatabase({ dataDir: null });
    process.env.PGLITE_SOCKET = served.socketDir;
    dropDatabase = served.close;
  }
}

// getDb() does not migrate (start-up does): each file's fresh database gets the schema here.
await (await import("../../lib/db/migrate")).migrateDatabase();

afterAll(async () => {
  const { closeDb } = await import("../../lib/db/client");
  await closeDb();
  await dropDatabase?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
