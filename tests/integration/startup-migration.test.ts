import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { withMigrationLock, MIGRATION_LOCK_KEY } from "../../lib/db/migration-lock";
import { openDatabase, parseDatabaseUrl } from "../../lib/db/connection";
import { deployMigrationsLocked } from "../../lib/db/migrate";
import { readExampleFlows } from "../../lib/services/examples";

// Start-up as `npm start` runs it (instrumentation.ts register()), in child processes. Several
// processes starting together on one PostgreSQL database must all come up: one migrates, the others
// wait for it (Prisma's own lock gave up after 10 s, P1002, and left them up without serving). A
// process that cannot start exits non-zero with one line saying why.

const ROOT = path.resolve(import.meta.dirname, "../..");
const serverUrl = process.env.TEST_PG_URL;
const START = `const m = await import(${JSON.stringify(path.join(ROOT, "instrumentation.ts"))}); await m.register(); process.exit(0);`;

type Exit = { code: number | null; stdout: string; stderr: string };

/** Runs register() in a fresh Node process with `env` over the test's environment. */
function startProcess(env: Record<string, string>): Promise<Exit> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sy-start-"));
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", START], {
    cwd: ROOT,
    env: { ...process.env, NEXT_RUNTIME: "nodejs", DATA_DIR: dataDir, LOAD_EXAMPLE_FLOWS: "false", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    }),
  );
}

async function admin<T = Record<string, unknown>>(sql: string, url = serverUrl!): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows as T[];
  } finally {
    await c.end();
  }
}

describe("start-up", () => {
  it("a process that cannot reach its database exits 1 with one line, instead of lingering", {
    timeout: 120_000,
  }, async () => {
    const res = await startProcess({ DATABASE_URL: "postgresql://postgres@127.0.0.1:1/nowhere" });
    expect(res.code).toBe(1);
    const lines = res.stderr
      .trim()
      .split("\n")
      .filter((l) => l.includes("[switchyard]"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[switchyard\] cannot start: .*ECONNREFUSED/);
  });
});

// Runs in `npm test`'s PostgreSQL step (TEST_PG_URL, scripts/test-all.sh): several processes need
// one database server. Skipped in the PGlite runs, which have no server.
describe.runIf(serverUrl)("start-up of several processes on one PostgreSQL database", () => {
  const name = `switchyard_start_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const url = serverUrl ? Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString() : "";
  afterAll(async () => {
    if (serverUrl) await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it("3 processes started together all come up; the schema, the admin and the examples land once", {
    timeout: 240_000,
  }, async () => {
    await admin(`CREATE DATABASE "${name}"`);
    const env = {
      DATABASE_URL: url,
      ADMIN_EMAIL: "boss@example.com",
      ADMIN_PASSWORD: "long-enough-1",
      LOAD_EXAMPLE_FLOWS: "true",
    };
    const results = await Promise.all([1, 2, 3].map(() => startProcess(env)));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const migrators = results.filter((r) => r.stdout.includes("applied migrations:"));
    expect(migrators).toHaveLength(1);
    expect(results.filter((r) => r.stdout.includes("created admin boss@example.com"))).toHaveLength(1);

    const migrations = fs
      .readdirSync(path.join(ROOT, "prisma/migrations"), { withFileTypes: true })
      .filter((d) => d.isDirectory());
    const rows = await admin<{ migration_name: string; n: number; done: number }>(
      `SELECT migration_name, count(*)::int AS n, count(finished_at)::int AS done FROM _prisma_migrations GROUP BY 1 ORDER BY 1`,
      url,
    );
    expect(rows).toEqual(
      migrations
        .map((d) => ({ migration_name: d.name, n: 1, done: 1 }))
        .sort((a, b) => a.migration_name.localeCompare(b.migration_name)),
    );
    expect(await admin(`SELECT count(*)::int AS n FROM "User"`, url)).toEqual([{ n: 1 }]);
    expect(await admin(`SELECT count(*)::int AS n FROM "Chatflow"`, url)).toEqual([{ n: readExampleFlows().length }]);

    // A later start finds nothing to do and still comes up.
    const again = await startProcess(env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toContain("applied migrations:");
  });

  it("a process gives up waiting for a stuck migration with a clear message", { timeout: 60_000 }, async () => {
    const holder = new pg.Client({ connectionString: serverUrl });
    await holder.connect();
    try {
      await holder.query("SELECT pg_advisory_lock($1::bigint)", [MIGRATION_LOCK_KEY]);
      let waited = false;
      const run = withMigrationLock(parseDatabaseUrl(serverUrl), async () => "ran", {
        waitMs: 600,
        onWait: () => (waited = true),
      });
      await expect(run).rejects.toThrow(/Another process has been migrating the database .*gave up waiting/);
      expect(waited).toBe(true);
    } finally {
      await holder.end();
    }
    // Freed with its connection: the next one gets it at once.
    expect(await withMigrationLock(parseDatabaseUrl(serverUrl), async () => "ran", { waitMs: 600 })).toBe("ran");
  });
  it("a process that stays up after migrating holds no migration lock (the next process is not kept waiting)", {
    timeout: 120_000,
  }, async () => {
    // The processes above exit after start-up, which frees every lock; servers and workers stay up.
    // Prisma's schema engine takes its session advisory lock (72707369) and releases it later: both
    // must run on one connection, or the lock stays with an idle pooled one (10 s per waiting process).
    const lockName = `switchyard_lock_${process.pid}`;
    await admin(`CREATE DATABASE "${lockName}"`);
    const lockUrl = Object.assign(new URL(serverUrl!), { pathname: `/${lockName}` }).toString();
    const open = await openDatabase(parseDatabaseUrl(lockUrl));
    try {
      for (let round = 0; round < 2; round++) {
        await deployMigrationsLocked(open); // applies everything, then finds nothing pending
        const held = await admin<{ pid: number }>(
          `SELECT l.pid FROM pg_locks l JOIN pg_database d ON d.oid = l.database
            WHERE l.locktype = 'advisory' AND l.granted AND d.datname = '${lockName}'`,
        );
        expect(held, `round ${round}: advisory locks still held after migrating`).toEqual([]);
      }
    } finally {
      await open.close();
      await admin(`DROP DATABASE IF EXISTS "${lockName}" WITH (FORCE)`);
    }
  });
});
