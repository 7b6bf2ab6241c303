import { getEnv } from "../env";
import { AppError } from "@/common/errors";
import { parseDatabaseUrl } from "./connection";

/** Driver adapter error kinds (@prisma/adapter-pg) meaning the server is not there, not that the query was wrong. */
const UNAVAILABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** PostgreSQL SQLSTATEs of a server shutting down, starting up or a broken connection. */
const UNAVAILABLE_SQLSTATES = /^(57P0[1-3]|08\d\d\d)$/;
/** Prisma's codes for an unreachable server, a connect timeout and a closed connection. */
const UNAVAILABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1017"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH"]);
/** node-postgres's messages for a connection lost or never made (they carry no code). */
const LOST_CONNECTION =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Can't reach database server|Server has closed the connection/i;

type Cause = { kind?: string; code?: string; port?: number; address?: string; message?: string };

/** The PostgreSQL server as host:port (never the URL: it may hold a password), or null for PGlite. */
export function databaseAddress(): string | null {
  const env = getEnv();
  const target = parseDatabaseUrl(env.DATABASE_URL, env.DATA_DIR);
  return target.kind === "postgres" ? `${target.host}:${target.port}` : null;
}

/** What made `err` a lost database, as a short reason (e.g. "ECONNREFUSED"), or null if it was something else. */
export function databaseUnavailableReason(err: unknown): string | null {
  const address = databaseAddress();
  if (!address) return null;
  const port = Number(address.slice(address.lastIndexOf(":") + 1));
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length) {
    const e = queue.shift() as (Cause & { cause?: unknown; meta?: { driverAdapterError?: { cause?: Cause } } }) | null;
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const adapterCause = e.meta?.driverAdapterError?.cause;
    if (adapterCause?.kind && UNAVAILABLE_KINDS.has(adapterCause.kind)) return adapterCause.kind;
    if (adapterCause?.kind === "postgres" && UNAVAILABLE_SQLSTATES.test(String(adapterCause.code))) {
      return `SQLSTATE ${adapterCause.code}`;
    }
    if (e.kind && UNAVAILABLE_KINDS.has(e.kind)) return e.kind;
    if (typeof e.code === "string") {
      if (UNAVAILABLE_PRISMA_CODES.has(e.code)) return e.code === "P1001" ? "ECONNREFUSED" : e.code;
      if (UNAVAILABLE_SQLSTATES.test(e.code)) return `SQLSTATE ${e.code}`;
      // A bare socket error counts only when it names the database's port (a flow's upstream has its own errors).
      if (SOCKET_CODES.has(e.code) && e.port === port) return e.code;
    }
    if (typeof e.message === "string" && LOST_CONNECTION.test(e.message)) return "connection lost";
    queue.push(e.cause, (e as { originalError?: unknown }).originalError);
  }
  return null;
}

/** `err` as a 503 database_unavailable naming the server, or null when it is not a lost database. */
export function asDatabaseUnavailable(err: unknown): AppError | null {
  const reason = databaseUnavailableReason(err);
  if (!reason) return null;
  return new AppError("database_unavailable", `PostgreSQL at ${databaseAddress()} is unreachable (${reason}).`, {
    headers: { "retry-after": "5" },
    cause: err,
  });
}
