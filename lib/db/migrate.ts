import type { OpenDatabase } from "./connection";
import { deployMigrations } from "./migrations";
import { withMigrationLock } from "./migration-lock";
import { getOpenDatabase } from "./client";

type MigrateOptions = {
  /** Called once when another process holds the lock and this one starts waiting. */
  onWait?: () => void;
  /**
   * Runs after the migrations, still holding the lock: start-up's one-time writes (the first
   * admin, the example flows) that processes starting together must not race on.
   */
  andThen?: (applied: string[]) => Promise<void>;
};

/**
 * Applies the pending migrations of an open database, one process at a time (see
 * migration-lock.ts); returns the names applied (empty when it was up to date).
 */
export async function deployMigrationsLocked(
  open: OpenDatabase,
  opts: MigrateOptions & { root?: string } = {},
): Promise<string[]> {
  return withMigrationLock(
    open.target,
    async () => {
      const applied = await open.withEngineFactory((factory) => deployMigrations(factory, opts.root));
      await opts.andThen?.(applied);
      return applied;
    },
    { onWait: opts.onWait },
  );
}

/**
 * The migrate step of this process's database (getDb() never migrates): run by start-up
 * (lib/services/bootstrap.ts), scripts/db.ts, bench and the test setup.
 */
export async function migrateDatabase(opts: MigrateOptions = {}): Promise<string[]> {
  return deployMigrationsLocked(await getOpenDatabase(), opts);
}
