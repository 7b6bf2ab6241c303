// Runs before every queue-mode test file (vitest project "queue"): a throwaway PostgreSQL database
// on TEST_PG_URL's server (default postgresql://postgres@127.0.0.1:5432/postgres), a private
// redis-server on a free port, MODE=queue, a temporary DATA_DIR, then the migrations. The test
// process is the API process; tests spawn worker processes (support.ts) with the same environment.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll } from "vitest";
import { freePort, startRedisServer, stopRedisServer } from "../../dev/redis-server";
import { queueRedis } from "./support";

const serverUrl = process.env.TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const name = `switchyard_queue_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE "${name}"`);
await admin.end();
const dbUrl = new URL(serverUrl);
dbUrl.pathname = `/${name}`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-queue-"));
const port = await freePort();
queueRedis.port = port;
queueRedis.server = await startRedisServer(port);

Object.assign(process.env, {
  MODE: "queue",
  DATABASE_URL: dbUrl.toString(),
  REDIS_URL: `redis://127.0.0.1:${port}`,
  DATA_DIR: dataDir,
  LOAD_EXAMPLE_FLOWS: "false",
  NEXTAUTH_URL: "http://127.0.0.1:3000",
  OUTBOUND_ALLOW_PRIVATE: "true",
  // A worker killed mid-job has its job retried after this long (production default 30 s).
  JOB_LOCK_MS: "1500",
});
(await import("../../lib/env")).resetEnvForTests();
await (await import("../../lib/db/migrate")).migrateDatabase();

afterAll(async () => {
  const { killWorkers } = await import("./support");
  await killWorkers();
  const { listProcessState } = await import("../../lib/state/registry");
  const created = new Set(
    listProcessState()
      .filter((s) => s.created)
      .map((s) => s.name),
  );
  if (created.has("queue")) await (await import("../../lib/queue")).closeQueueClient();
  if (created.has("redis")) {
    const { redisConnections } = await import("../../lib/redis");
    const { command, subscriber } = redisConnections(process.env.REDIS_URL!);
    command.disconnect();
    subscriber.disconnect();
  }
  const { closeDb } = await import("../../lib/db/client");
  await closeDb();
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.end();
  if (queueRedis.server) await stopRedisServer(queueRedis.server);
  fs.rmSync(dataDir, { recursive: true, force: true });
});
