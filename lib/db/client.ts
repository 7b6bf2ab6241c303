import { PrismaClient } from "./generated/client";
import { getEnv } from "../env";
import { openDatabase, parseDatabaseUrl, type OpenDatabase } from "./connection";
import { deployMigrations } from "./migrations";
import { processState } from "../state";

export type Db = PrismaClient;

type State = { db: Db; open: OpenDatabase; applied: string[] };

// One database per process (PGlite allows a single opener per data dir). Kept on globalThis so
// Next's dev reloads and the instrumentation hook share it with route handlers.
const holder = processState("db", () => ({}) as { __switchyardDb?: Promise<State> }); // "db" in lib/state/catalogue.ts

async function connect(): Promise<State> {
  const env = getEnv();
  const open = await openDatabase(parseDatabaseUrl(env.DATABASE_URL, env.DATA_DIR));
  const applied = await deployMigrations(open.factory);
  const db = new PrismaClient({ adapter: open.factory });
  return { db, open, applied };
}

/** The Prisma client, connected and migrated on first use. */
export async function getDb(): Promise<Db> {
  holder.__switchyardDb ??= connect().catch((err) => {
    holder.__switchyardDb = undefined;
    throw err;
  });
  return (await holder.__switchyardDb).db;
}

/** Plain SQL on the connected database (see OpenDatabase.sql): for the prediction hot path only. */
export async function getSql(): Promise<OpenDatabase["sql"]> {
  await getDb();
  return (await holder.__switchyardDb!).open.sql;
}

/** Migrations applied when this process connected (empty when the database was up to date). */
export async function getAppliedMigrations(): Promise<string[]> {
  await getDb();
  return (await holder.__switchyardDb!).applied;
}

/** Closes the database; scripts and tests call this so PGlite does not keep the process alive. */
export async function closeDb(): Promise<void> {
  const state = holder.__switchyardDb;
  holder.__switchyardDb = undefined;
  if (!state) return;
  const { db, open } = await state;
  await db.$disconnect();
  await open.close();
}
