import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";

/**
 * Migrations through Prisma's wasm schema engine: the Rust binary the Prisma CLI wants cannot be
 * downloaded on our machines. The engine's ESM entry needs --experimental-wasm-modules on Node 20,
 * so we instantiate the .wasm ourselves with its JS glue as the import object.
 */

const MIGRATIONS_DIR = "prisma/migrations";
const SCHEMA_FILE = "prisma/schema.prisma";
/**
 * Tables our migrations create that schema.prisma does not model: document_chunk_embeddings needs
 * pgvector, which a server may lack (its migration creates it only where the extension exists), so
 * the schema engine leaves it out of its diffs.
 */
export const EXTERNAL_TABLES = ["public.document_chunk_embeddings"];
const NO_FILTER = { externalTables: EXTERNAL_TABLES, externalEnums: [] };

type SchemaEngine = {
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  diff(input: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  diagnoseMigrationHistory(input: unknown): Promise<{
    history: null | { diagnostic: string; unappliedMigrationNames?: string[]; unpersistedMigrationNames?: string[] };
    failedMigrationNames: string[];
    editedMigrationNames: string[];
    hasMigrationsTable: boolean;
  }>;
  free(): void;
};

let enginePromise: Promise<{ SchemaEngine: { new: (...args: unknown[]) => unknown } }> | undefined;

/** Loads the wasm module once per process. Resolved from the project root so bundlers leave it alone. */
async function loadEngineModule(root: string) {
  enginePromise ??= (async () => {
    const req = createRequire(path.join(root, "package.json"));
    const pkgDir = path.dirname(req.resolve("@prisma/schema-engine-wasm"));
    const glue = await import(/* webpackIgnore: true */ pathToFileURL(path.join(pkgDir, "schema_engine_bg.js")).href);
    const bytes = fs.readFileSync(path.join(pkgDir, "schema_engine_bg.wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": glue });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
    return glue;
  })();
  return enginePromise;
}

async function createEngine(factory: SqlMigrationAwareDriverAdapterFactory, root: string): Promise<SchemaEngine> {
  const [{ SchemaEngine }, utils] = await Promise.all([loadEngineModule(root), import("@prisma/driver-adapter-utils")]);
  const schema = fs.readFileSync(path.join(root, SCHEMA_FILE), "utf8");
  const log = (line: string) => {
    if (process.env.MIGRATE_DEBUG) console.error("[schema-engine]", line);
  };
  const bound = utils.bindMigrationAwareSqlAdapterFactory(factory);
  return (await SchemaEngine.new({ datamodels: [[SCHEMA_FILE, schema]] }, log, bound)) as SchemaEngine;
}

/** Reads prisma/migrations in the layout `prisma migrate` uses; folder paths are bare names. */
export function readMigrationsList(root: string) {
  const baseDir = path.join(root, MIGRATIONS_DIR);
  const dirs = fs.existsSync(baseDir)
    ? fs
        .readdirSync(baseDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const lockPath = path.join(baseDir, "migration_lock.toml");
  return {
    baseDir,
    lockfile: {
      path: "migration_lock.toml",
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok", value: fs.readFileSync(path.join(baseDir, name, "migration.sql"), "utf8") },
      },
    })),
  };
}

async function withEngine<T>(
  factory: SqlMigrationAwareDriverAdapterFactory,
  root: string,
  fn: (e: SchemaEngine) => Promise<T>,
) {
  const engine = await createEngine(factory, root);
  try {
    return await fn(engine);
  } finally {
    engine.free();
  }
}

/** Applies every pending migration; returns the names applied (empty when up to date). */
export async function deployMigrations(factory: SqlMigrationAwareDriverAdapterFactory, root = process.cwd()) {
  return withEngine(factory, root, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList: readMigrationsList(root), filters: NO_FILTER });
    return out.appliedMigrationNames;
  });
}

/** Compares the database's migration history with the folder. */
export async function migrationStatus(factory: SqlMigrationAwareDriverAdapterFactory, root = process.cwd()) {
  return withEngine(factory, root, (engine) =>
    engine.diagnoseMigrationHistory({
      migrationsList: readMigrationsList(root),
      optInToShadowDatabase: false,
      filters: NO_FILTER,
    }),
  );
}

/**
 * SQL that takes the migrations folder to the current schema, or null when they already match.
 * The engine replays the folder on a shadow database of the given factory (in-memory PGlite works).
 */
export async function diffMigrationsToSchema(factory: SqlMigrationAwareDriverAdapterFactory, root = process.cwd()) {
  const schema = fs.readFileSync(path.join(root, SCHEMA_FILE), "utf8");
  return withEngine(factory, root, async (engine) => {
    const list = readMigrationsList(root);
    const out = await engine.diff({
      from: list.migrationDirectories.length ? { tag: "migrations", ...list } : { tag: "empty" },
      to: { tag: "schemaDatamodel", files: [{ path: SCHEMA_FILE, content: schema }] },
      script: true,
      exitCode: true,
      filters: NO_FILTER,
    });
    const sql = (out.stdout ?? "").trim();
    return out.exitCode === 2 && sql && !/^-- This is an empty migration/.test(sql) ? `${sql}\n` : null;
  });
}

/** Writes a new migration folder `<timestamp>_<name>` when the schema moved on; returns its name. */
export async function createMigration(
  factory: SqlMigrationAwareDriverAdapterFactory,
  name: string,
  root = process.cwd(),
) {
  const sql = await diffMigrationsToSchema(factory, root);
  if (!sql) return null;
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dirName = `${stamp}_${name.replace(/[^a-z0-9_]+/gi, "_").toLowerCase()}`;
  const dir = path.join(root, MIGRATIONS_DIR, dirName);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "migration.sql"), sql);
  const lock = path.join(root, MIGRATIONS_DIR, "migration_lock.toml");
  if (!fs.existsSync(lock)) fs.writeFileSync(lock, 'provider = "postgresql"\n');
  return dirName;
}
