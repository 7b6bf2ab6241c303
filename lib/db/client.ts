import { PrismaClient } from "./generated/client";
import { getEnv } from "../env";
import { openDatabase, parseDatabaseUrl, type OpenDatabase } from "./connection";
import { processState } from "../state";
import { inSpan, tracingOn } from "../telemetry/traces";

export type Db = PrismaClient;

type State = { db: Db; open: OpenDatabase };

// One database per process (PGlite allows a single opener per data dir). Kept on globalThis so
// Next's dev reloads and the instrumentation hook share it with route handlers.
const holder = processState("db", () => ({}) as { __switchyardDb?: Promise<State> }); // "db" in lib/state/catalogue.ts

async function connect(): Promise<State> {
  const env = getEnv();
  const open = await openDatabase(
    parseDatabaseUrl(env.DATABASE_URL, env.DATA_DIR),
    env.PGLITE_SOCKET,
    env.PGLITE_SHARED_BUFFERS,
  );
  const db = new PrismaClient({ adapter: open.factory });
  return { db, open };
}

function state(): Promise<State> {
  holder.__switchyardDb ??= connect().catch((err) => {
    holder.__switchyardDb = undefined;
    throw err;
  });
  return holder.__switchyardDb;
}

/**
 * The Prisma client, connected on first use. It does not migrate: start-up, scripts/db.ts, bench
 * and the test setup run the migrate step (lib/db/migrate.ts) before using it.
 */
export async function getDb(): Promise<Db> {
  return (await state()).db;
}

/**
 * Plain SQL on the connected database (see OpenDatabase.sql): for hot paths and statements Prisma
 * cannot write. While tracing, each statement is a `db_query` span, as Prisma's statements are.
 */
export async function getSql(): Promise<OpenDatabase["sql"]> {
  const { sql } = (await state()).open;
  if (!tracingOn()) return sql;
  return (text, params, name) =>
    inSpan("db_query", { "db.system.name": "postgresql", "db.query.text": text }, () => sql(text, params, name), {
      kind: "client",
    });
}

/** The open database under the Prisma client (its target and adapter factory), for the migrate step. */
export async function getOpenDatabase(): Promise<OpenDatabase> {
  return (await state()).open;
}

/** Closes the database; scripts and tests call this so PGlite does not keep the process alive. */
export async function closeDb(): Promise<void> {
  const current = holder.__switchyardDb;
  holder.__switchyardDb = undefined;
  if (!current) return;
  const { db, open } = await current;
  await db.$disconnect();
  await open.close();
}
