// Our migration commands (the Prisma CLI's need a binary we cannot download):
//   tsx scripts/db.ts create <name>   diff the migrations folder against the schema on in-memory PGlite
//   tsx scripts/db.ts deploy          apply pending migrations to DATABASE_URL (default ./data/pglite)
//   tsx scripts/db.ts status          show pending / failed / edited migrations
import { openDatabase, parseDatabaseUrl } from "../lib/db/connection";
import { createMigration, migrationStatus } from "../lib/db/migrations";
import { deployMigrationsLocked } from "../lib/db/migrate";

async function main() {
  const [command, name] = process.argv.slice(2);
  if (command === "create") {
    const db = await openDatabase({ kind: "pglite", dataDir: null });
    const created = await createMigration(db.factory, name || "change");
    console.log(
      created
        ? `Created prisma/migrations/${created}/migration.sql`
        : "Schema and migrations already match: nothing to create.",
    );
    await db.close();
    return;
  }
  const target = parseDatabaseUrl(process.env.DATABASE_URL, process.env.DATA_DIR);
  const db = await openDatabase(target);
  try {
    if (command === "deploy") {
      const onWait = () => console.log("Waiting for another process to finish migrating…");
      const applied = await deployMigrationsLocked(db, { onWait });
      console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date: no migration applied.");
    } else if (command === "status") {
      const s = await migrationStatus(db.factory);
      if (!s.history && !s.failedMigrationNames.length && !s.editedMigrationNames.length)
        console.log("Database is up to date.");
      else console.log(JSON.stringify(s, null, 2));
    } else {
      console.error("usage: tsx scripts/db.ts create <name> | deploy | status");
      process.exitCode = 2;
    }
  } finally {
    await db.close();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
