import type { DatabaseTarget } from "./connection";

/**
 * Processes that start together on one PostgreSQL database take turns migrating it. Prisma's
 * schema engine takes its own advisory lock (72707369) but gives up after 10 s (P1002), which left
 * every process but one up without a migrated database. This lock is taken first, on a connection
 * of its own, and waited for as long as the migrating process holds it; the waiters then find
 * nothing pending. A session lock dies with its connection, so a crashed migrator frees it.
 */

/** Our key: any bigint other than Prisma's 72707369. */
export const MIGRATION_LOCK_KEY = 72707370;
/** How long a process waits for another one's migration before it gives up. */
export const MIGRATION_LOCK_WAIT_MS = 10 * 60_000;
const POLL_MS = 200;

type Options = { waitMs?: number; onWait?: () => void };

/** Runs `fn` holding the migration lock of the target's database (PGlite: one process per data dir, no lock). */
export async function withMigrationLock<T>(
  target: DatabaseTarget,
  fn: () => Promise<T>,
  opts: Options = {},
): Promise<T> {
  if (target.kind !== "postgres") return fn();
  const { default: pg } = await import("pg");
  const { kind: _kind, ...config } = target;
  const client = new pg.Client({ ...config, application_name: "switchyard-migrate" });
  // An error on the idle lock connection (server restart) must not crash the process: the
  // migration itself fails on its own connections and says why.
  client.on("error", () => {});
  await client.connect();
  try {
    await acquire(client, opts);
    return await fn();
  } finally {
    await client.end().catch(() => {});
  }
}

type Queryable = { query(text: string, values?: unknown[]): Promise<{ rows: { locked: boolean }[] }> };

async function acquire(client: Queryable, { waitMs = MIGRATION_LOCK_WAIT_MS, onWait }: Options): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let waited = false; ; waited = true) {
    const { rows } = await client.query("SELECT pg_try_advisory_lock($1::bigint) AS locked", [MIGRATION_LOCK_KEY]);
    if (rows[0]?.locked) return;
    if (!waited) onWait?.();
    if (Date.now() >= deadline) {
      throw new Error(
        `Another process has been migrating the database for over ${Math.round(waitMs / 1000)} s (advisory lock ${MIGRATION_LOCK_KEY}); ` +
          "gave up waiting. Check for a stuck migration (pg_locks) and start again.",
      );
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
