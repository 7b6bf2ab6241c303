import path from "node:path";
import fs from "node:fs";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { log } from "../log";

/** Where the data lives, decided from DATABASE_URL. */
export type DatabaseTarget =
  | { kind: "pglite"; dataDir: string | null }
  | { kind: "postgres"; host: string; port: number; user: string; password?: string; database: string };

/** Reads DATABASE_URL: unset or `pglite:<dir>` → embedded, `pglite:memory://` → in memory, else a server. */
export function parseDatabaseUrl(url: string | undefined, dataDir = "./data"): DatabaseTarget {
  if (!url || url.startsWith("pglite:")) {
    const rest = url ? url.slice("pglite:".length) : "";
    if (rest === "memory://" || rest === "memory") return { kind: "pglite", dataDir: null };
    return { kind: "pglite", dataDir: path.resolve(rest || path.join(dataDir, "pglite")) };
  }
  const u = new URL(url);
  if (u.protocol !== "postgresql:" && u.protocol !== "postgres:") {
    throw new Error(`DATABASE_URL: unsupported scheme ${u.protocol}`);
  }
  return {
    kind: "postgres",
    host: decodeURIComponent(u.hostname) || "127.0.0.1",
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username || "postgres"),
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database: decodeURIComponent(u.pathname.replace(/^\//, "")) || "postgres",
  };
}

/** An open database: the adapter factory Prisma and the schema engine share, and how to close it. */
export interface OpenDatabase {
  target: DatabaseTarget;
  factory: SqlMigrationAwareDriverAdapterFactory;
  /**
   * Runs `fn` with a schema-engine factory (migrations) on a connection of its own, closed after.
   * Prisma's engine takes a session advisory lock (72707369) and leaves its release to the end of
   * the session: on a pooled connection that stays open (a server or worker that keeps running),
   * the lock stayed held until the pool closed the idle connection 10 s later, so processes
   * starting together came up 10 s apart each. Closing the connection releases it at once.
   */
  withEngineFactory<T>(fn: (factory: SqlMigrationAwareDriverAdapterFactory) => Promise<T>): Promise<T>;
  /**
   * Plain SQL on the same database, bypassing Prisma's query compiler and driver adapter. Only for
   * the prediction hot path (lib/db/queries/chat-messages.ts), where each Prisma round trip on PGlite
   * costs several times the query itself (bench/measured.md, "Plain SQL on the hot path"). `name` makes it a prepared
   * statement on the embedded database's thread, parsed once per connection (the wire server keeps
   * connections' names apart) instead of on every call; elsewhere it is ignored (a PostgreSQL server
   * may sit behind a pooler that does not keep named statements, and in-process PGlite has none).
   */
  sql<T = Record<string, unknown>>(text: string, params: unknown[], name?: string): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * Opens the database named by the target. PGlite allows one process per data dir, so the
 * server opens it once and shares it.
 */
export async function openDatabase(
  target: DatabaseTarget,
  pgliteSocket?: string,
  /** PostgreSQL's shared_buffers for an in-process PGlite (see PGLITE_SHARED_BUFFERS in lib/env.ts). */
  pgliteSharedBuffers = "16MB",
): Promise<OpenDatabase> {
  if (target.kind === "pglite" && pgliteSocket) return openServedPGlite(target, pgliteSocket);
  if (target.kind === "pglite") {
    const [{ PGlite }, { PrismaPGlite }, { vector }] = await Promise.all([
      import("@electric-sql/pglite"),
      import("pglite-prisma-adapter"),
      // pgvector for the vector store nodes (CREATE EXTENSION: migration 20261125120000_document_chunk_embeddings).
      import("@electric-sql/pglite-pgvector"),
    ]);
    if (target.dataDir) fs.mkdirSync(target.dataDir, { recursive: true });
    const options = {
      extensions: { vector },
      startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${pgliteSharedBuffers}`],
    };
    const client = target.dataDir ? new PGlite(target.dataDir, options) : new PGlite(options);
    await client.waitReady;
    const factory = new PrismaPGlite(client) as unknown as SqlMigrationAwareDriverAdapterFactory;
    const sql = async <T>(text: string, params: unknown[]) => (await client.query<T>(text, params)).rows;
    return { target, factory, withEngineFactory: (fn) => fn(factory), sql, close: () => client.close() };
  }
  const [{ PrismaPg }, { default: pg }] = await Promise.all([import("@prisma/adapter-pg"), import("pg")]);
  // Separate fields, not a connection string: the adapter's shadow-database switch needs them.
  const { kind: _kind, ...config } = target;
  const factory = new PrismaPg({ ...config, max: 10 });
  const withEngineFactory = async <T>(fn: (f: SqlMigrationAwareDriverAdapterFactory) => Promise<T>): Promise<T> => {
    const enginePool = new pg.Pool({ ...config, max: 1 });
    enginePool.on("error", () => {}); // the migration's own queries fail and say why
    try {
      return await fn(new PrismaPg(enginePool) as unknown as SqlMigrationAwareDriverAdapterFactory);
    } finally {
      await enginePool.end().catch(() => {});
    }
  };
  let pool: InstanceType<typeof pg.Pool> | undefined;
  const sql = async <T>(text: string, params: unknown[]) => {
    if (!pool) {
      pool = new pg.Pool({ ...config, max: 5 });
      // An idle connection dropped by the server (restart, DROP DATABASE … FORCE) must not crash us.
      pool.on("error", (err) => log.warn({ reason: err.message }, "database connection lost"));
    }
    return (await pool.query(text, params)).rows as T[];
  };
  return {
    target,
    factory,
    withEngineFactory,
    sql,
    close: async () => {
      await pool?.end();
    },
  };
}

/**
 * The embedded database served from its own thread (server/pglite-wire.mjs) at the Unix socket
 * directory `socketDir`: one `pg` pool for Prisma and the hot path's plain SQL. The thread's
 * server keeps the pool's connections from interleaving inside the one PGlite session.
 */
async function openServedPGlite(target: DatabaseTarget, socketDir: string): Promise<OpenDatabase> {
  const [{ PrismaPg }, { default: pg }] = await Promise.all([import("@prisma/adapter-pg"), import("pg")]);
  const pool = new pg.Pool({ host: socketDir, port: 5432, user: "postgres", database: "postgres", max: 4 });
  pool.on("error", (err) => log.warn({ reason: err.message }, "embedded database connection lost"));
  const factory = new PrismaPg(pool) as unknown as SqlMigrationAwareDriverAdapterFactory;
  const sql = async <T>(text: string, values: unknown[], name?: string) =>
    (await pool.query({ name, text, values })).rows as T[];
  return { target, factory, withEngineFactory: (fn) => fn(factory), sql, close: () => pool.end() };
}
