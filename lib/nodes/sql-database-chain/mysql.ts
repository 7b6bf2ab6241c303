import mysql from "mysql2/promise";
import { AppError } from "@/common/errors";
import { checkOperatorHost } from "../../security/outbound-policy";
import type { SqlConnection, SqlLimits, SqlRows, TableFilter } from "./postgres";
import { MAX_TABLES } from "./postgres";

/**
 * MySQL and MariaDB for the SQL Database Chain, with PostgreSQL's rules: a READ ONLY transaction,
 * a statement timeout (MySQL's max_execution_time, MariaDB's max_statement_time, and the driver's own
 * deadline behind them), rolled back at the end; the host through the operator's outbound rules and
 * the connection pinned to the checked address. Failures name the database: unreachable 503, slow
 * 504, an error it answers 502, a write it refuses 422.
 */

type MysqlError = Error & { code?: string; errno?: number };

const where = (conn: SqlConnection) => `the database "${conn.database}" at ${conn.host}:${conn.port}`;

function failure(e: unknown, conn: SqlConnection, label: string): AppError {
  if (e instanceof AppError) return e;
  const err = e as MysqlError;
  const msg = err?.message ?? String(e);
  // 3024: MySQL's max_execution_time; 1969: MariaDB's max_statement_time; PROTOCOL_SEQUENCE_TIMEOUT: the driver's.
  if (err?.errno === 3024 || err?.errno === 1969 || err?.code === "PROTOCOL_SEQUENCE_TIMEOUT" || /timeout/i.test(msg))
    return new AppError("upstream_timeout", `${label}: ${where(conn)} did not answer in time (${msg}).`, { cause: e });
  // 1792: a write in a READ ONLY transaction.
  if (err?.errno === 1792)
    return new AppError(
      "unprocessable",
      `${label}: ${where(conn)} refused a write in the read-only transaction (${msg}).`,
      {
        cause: e,
      },
    );
  if (typeof err?.errno === "number" && err.errno >= 1000 && err.code !== "ECONNREFUSED")
    return new AppError("upstream_error", `${label}: ${where(conn)} answered an error: ${msg}`, { cause: e });
  return new AppError("upstream_unavailable", `${label}: ${where(conn)} could not be reached: ${msg}`, { cause: e });
}

export type MysqlClient = mysql.Connection & { timeoutMs: number };

/** Runs `work` in a READ ONLY transaction on its own connection, then rolls back and disconnects. */
export async function mysqlReadOnlySession<T>(
  conn: SqlConnection,
  limits: Pick<SqlLimits, "timeoutMs">,
  label: string,
  work: (client: MysqlClient) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const target = await checkOperatorHost(conn.host, conn.port);
  let client: mysql.Connection | undefined;
  const onAbort = () => client?.destroy();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    client = await mysql.createConnection({
      host: target.address,
      port: conn.port,
      database: conn.database,
      user: conn.user,
      password: conn.password,
      // The connection goes to the checked address; the certificate is still checked for the host's name.
      ssl: conn.ssl ? ({ servername: conn.host } as mysql.SslOptions) : undefined,
      connectTimeout: limits.timeoutMs,
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
      multipleStatements: false,
    });
    client.on("error", () => {}); // a dropped connection fails the pending query, which reports it
    // MySQL counts milliseconds, MariaDB seconds; each server ignores the other's variable (an error we skip).
    await client.query(`SET SESSION max_execution_time = ${Math.ceil(limits.timeoutMs)}`).catch(() => {});
    await client.query(`SET SESSION max_statement_time = ${(limits.timeoutMs / 1000).toFixed(3)}`).catch(() => {});
    await client.query("START TRANSACTION READ ONLY");
    return await work(Object.assign(client, { timeoutMs: limits.timeoutMs }));
  } catch (e) {
    if (signal?.aborted) throw signal.reason ?? e;
    throw failure(e, conn, label);
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await client?.query("ROLLBACK").catch(() => {});
    await client?.end().catch(() => client?.destroy());
  }
}

const quoteIdent = (name: string) => `\`${name.replace(/`/g, "``")}\``;

function cell(v: unknown): string {
  const s = typeof v === "object" && v !== null ? JSON.stringify(v) : String(v);
  return s.length > 100 ? `${s.slice(0, 100)}…` : s;
}

/** The current database's tables (columns and a few sample rows), as text for the model. */
export async function mysqlDescribeTables(client: MysqlClient, filter: TableFilter): Promise<string> {
  const [rows] = await client.query<mysql.RowDataPacket[]>({
    sql: `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, COLUMN_TYPE AS type FROM information_schema.COLUMNS
          WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    timeout: client.timeoutMs,
  });
  const tables = new Map<string, string[]>();
  for (const r of rows) {
    const name = String(r.t);
    if (filter.include.length && !filter.include.includes(name)) continue;
    if (filter.ignore.includes(name)) continue;
    if (!tables.has(name) && tables.size >= MAX_TABLES) continue;
    tables.set(name, [...(tables.get(name) ?? []), `  ${quoteIdent(String(r.c))} ${String(r.type)}`]);
  }
  const parts: string[] = [];
  for (const [name, columns] of tables) {
    let text = `CREATE TABLE ${quoteIdent(name)} (\n${columns.join(",\n")}\n)`;
    if (filter.sampleRows > 0) {
      const [sample, fields] = await client.query<mysql.RowDataPacket[]>({
        sql: `SELECT * FROM ${quoteIdent(name)} LIMIT ${filter.sampleRows}`,
        timeout: client.timeoutMs,
      });
      const head = fields.map((f) => f.name).join("\t");
      const lines = sample.map((row) => fields.map((f) => cell(row[f.name])).join("\t"));
      text += `\n/*\n${sample.length} rows from ${name}:\n${[head, ...lines].join("\n")}\n*/`;
    }
    parts.push(text);
  }
  return parts.join("\n\n");
}

/** Runs one checked SELECT with the row cap. */
export async function mysqlRunSelect(client: MysqlClient, sql: string, maxRows: number): Promise<SqlRows> {
  const [rows, fields] = await client.query<mysql.RowDataPacket[]>({
    sql: `SELECT * FROM (\n${sql}\n) AS switchyard_query LIMIT ${maxRows + 1}`,
    timeout: client.timeoutMs,
  });
  return {
    columns: fields.map((f) => f.name),
    rows: rows.slice(0, maxRows).map((r) => ({ ...r })),
    truncated: rows.length > maxRows,
  };
}
