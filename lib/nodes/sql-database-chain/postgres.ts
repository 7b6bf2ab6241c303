import pg from "pg";
import { AppError } from "@/common/errors";
import { checkOperatorHost } from "../../security/outbound-policy";

/**
 * PostgreSQL for the SQL Database Chain. Every session is a READ ONLY transaction with a statement
 * timeout, rolled back at the end; the host goes through the operator's outbound rules (a private
 * address only where OUTBOUND_ALLOW_HOSTS allows it) and the connection is pinned to the checked
 * address. Failures name the database: unreachable 503, slow 504, an error it answers 502, a write
 * it refuses 422.
 */

export interface SqlConnection {
  host: string;
  port: number;
  database: string;
  user: string;
  password?: string;
  ssl?: boolean;
}

export interface SqlLimits {
  timeoutMs: number;
  maxRows: number;
}

export interface SqlRows {
  columns: string[];
  rows: Record<string, unknown>[];
  /** More rows matched than maxRows; only the first maxRows are kept. */
  truncated: boolean;
}

type PgError = Error & { code?: string };

function where(conn: SqlConnection) {
  return `the database "${conn.database}" at ${conn.host}:${conn.port}`;
}

function failure(e: unknown, conn: SqlConnection, label: string): AppError {
  if (e instanceof AppError) return e;
  const err = e as PgError;
  const msg = err?.message ?? String(e);
  if (err?.code === "57014" || /timeout|timed out/i.test(msg))
    return new AppError("upstream_timeout", `${label}: ${where(conn)} did not answer in time (${msg}).`, { cause: e });
  if (err?.code === "25006")
    return new AppError(
      "unprocessable",
      `${label}: ${where(conn)} refused a write in the read-only transaction (${msg}).`,
      {
        cause: e,
      },
    );
  if (err?.code && /^[0-9A-Z]{5}$/.test(err.code))
    return new AppError("upstream_error", `${label}: ${where(conn)} answered an error: ${msg}`, { cause: e });
  return new AppError("upstream_unavailable", `${label}: ${where(conn)} could not be reached: ${msg}`, { cause: e });
}

/** Runs `work` in a READ ONLY transaction on its own connection, then rolls back and disconnects. */
export async function readOnlySession<T>(
  conn: SqlConnection,
  limits: Pick<SqlLimits, "timeoutMs">,
  label: string,
  work: (client: pg.Client) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const target = await checkOperatorHost(conn.host, conn.port);
  const client = new pg.Client({
    host: target.address,
    port: conn.port,
    database: conn.database,
    user: conn.user,
    password: conn.password,
    ssl: conn.ssl ? { servername: conn.host } : false,
    connectionTimeoutMillis: limits.timeoutMs,
    statement_timeout: limits.timeoutMs,
    // A server that stops answering mid-query: the client gives up a little after the statement timeout.
    query_timeout: limits.timeoutMs + 2_000,
    application_name: "switchyard-sql-chain",
  });
  client.on("error", () => {}); // a dropped connection fails the pending query, which is what reports it
  const onAbort = () => void client.end().catch(() => {});
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    await client.connect();
    await client.query("BEGIN TRANSACTION READ ONLY");
    return await work(client);
  } catch (e) {
    if (signal?.aborted) throw signal.reason ?? e;
    throw failure(e, conn, label);
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await client.query("ROLLBACK").catch(() => {});
    await client.end().catch(() => {});
  }
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface TableFilter {
  include: string[];
  ignore: string[];
  sampleRows: number;
}

/** Most tables described to the model. */
export const MAX_TABLES = 50;

/** The tables (columns and a few sample rows) the model writes its query against, as text. */
export async function describeTables(client: pg.Client, filter: TableFilter): Promise<string> {
  const { rows } = await client.query<{
    table_schema: string;
    table_name: string;
    column_name: string;
    data_type: string;
  }>(
    `SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns
     WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg_toast%'
     ORDER BY table_schema, table_name, ordinal_position`,
  );
  const tables = new Map<string, { schema: string; name: string; columns: string[] }>();
  for (const r of rows) {
    if (filter.include.length && !filter.include.includes(r.table_name)) continue;
    if (filter.ignore.includes(r.table_name)) continue;
    const key = `${r.table_schema}.${r.table_name}`;
    if (!tables.has(key) && tables.size >= MAX_TABLES) continue;
    const t = tables.get(key) ?? { schema: r.table_schema, name: r.table_name, columns: [] };
    t.columns.push(`  ${quoteIdent(r.column_name)} ${r.data_type}`);
    tables.set(key, t);
  }
  const parts: string[] = [];
  for (const t of tables.values()) {
    const qualified = t.schema === "public" ? quoteIdent(t.name) : `${quoteIdent(t.schema)}.${quoteIdent(t.name)}`;
    let text = `CREATE TABLE ${qualified} (\n${t.columns.join(",\n")}\n)`;
    if (filter.sampleRows > 0) {
      const sample = await client.query({
        text: `SELECT * FROM ${qualified} LIMIT ${filter.sampleRows}`,
        rowMode: "array",
      });
      const head = sample.fields.map((f) => f.name).join("\t");
      const lines = (sample.rows as unknown[][]).map((row) => row.map((v) => cell(v)).join("\t"));
      text += `\n/*\n${sample.rows.length} rows from ${t.name}:\n${[head, ...lines].join("\n")}\n*/`;
    }
    parts.push(text);
  }
  return parts.join("\n\n");
}

function cell(v: unknown): string {
  const s = v instanceof Date ? v.toISOString() : typeof v === "object" && v !== null ? JSON.stringify(v) : String(v);
  return s.length > 100 ? `${s.slice(0, 100)}…` : s;
}

/** Runs one checked SELECT with the row cap (the query wrapped, so no more than maxRows + 1 rows come back). */
export async function runSelect(client: pg.Client, sql: string, maxRows: number): Promise<SqlRows> {
  const res = await client.query(`SELECT * FROM (\n${sql}\n) AS switchyard_query LIMIT ${maxRows + 1}`);
  return {
    columns: res.fields.map((f) => f.name),
    rows: res.rows.slice(0, maxRows),
    truncated: res.rows.length > maxRows,
  };
}
