import { getDb } from "../../lib/db/client";

/** Embedded PGlite ships pgvector; a PostgreSQL server may not (this machine's has none). */
export async function databaseHasPgvector(): Promise<boolean> {
  if (!process.env.DATABASE_URL?.startsWith("postgres")) return true;
  return (
    (await (await getDb()).$queryRawUnsafe<unknown[]>("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'"))
      .length > 0
  );
}
