// @ts-check
// The embedded database off the event loop: PGlite on a worker thread of its own, serving the
// PostgreSQL wire protocol on a private Unix socket. The app then talks to it through `pg` and
// Prisma's PostgreSQL adapter like to a server, while the database's work (its WebAssembly and its
// protocol handling, ~30% of the main thread per prediction when it ran in-process) runs on the
// second core.
//
// PGlite is one backend session. Several client connections share it safely because this server
// hands PGlite whole request batches (everything up to a Sync or a simple Query), never one message
// of a connection between another's Parse and Sync, and while a connection has a transaction open
// (ReadyForQuery says T or E) only that connection's batches run; a connection that goes away inside
// a transaction has it rolled back. Named prepared statements are kept apart per connection: this
// server renames them (Parse, Bind, Describe and Close name `s<connection>_<name>` in PGlite) and
// closes a connection's statements when it goes away. Clients see what one PostgreSQL session per
// connection would give them for the statements the app sends (extended-protocol statements, named or
// not; no session settings of their own, no PREPARE/EXECUTE in SQL text).
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { collectGarbage, collectWhenIdle } from "./idle-gc.mjs";

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Message types that end a batch: Sync, simple Query, Flush. */
const BATCH_END = new Set([0x53, 0x51, 0x48]);
const TERMINATE = 0x58;
const PARSE = 0x50;
const BIND = 0x42;
const DESCRIBE = 0x44;
const CLOSE = 0x43;
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
/** Describe and Close name a statement ('S') or a portal ('P'). */
const STATEMENT = 0x53;
const READY_FOR_QUERY = 0x5a;
const IDLE = 0x49;
/** A simple-protocol ROLLBACK, for a connection that leaves inside a transaction. */
const ROLLBACK = simpleQuery("ROLLBACK");
/** One batch larger than this closes its connection (the app's largest statement is far smaller). */
const MAX_BATCH_BYTES = 256 * 1024 * 1024;
/** The socket file name `pg` looks for in a directory given as host, for this port. */
export const SOCKET_PORT = 5432;

/** @param {string} text */
function simpleQuery(text) {
  const body = Buffer.from(`${text}\0`, "utf8");
  const msg = Buffer.alloc(5 + body.length);
  msg[0] = 0x51;
  msg.writeInt32BE(4 + body.length, 1);
  body.copy(msg, 5);
  return msg;
}

/**
 * Where the message at `pos` (ending before `next`) names a prepared statement: [start, end) of the
 * name, `end` at its NUL; null for the unnamed statement, a message that names none, or a name
 * without its NUL inside the message (left as it is: PGlite answers that with an error).
 * @param {Buffer} buf
 * @param {number} pos
 * @param {number} next
 * @returns {[number, number] | null}
 */
function statementName(buf, pos, next) {
  const type = buf[pos];
  const body = pos + 5;
  let at = -1;
  if (type === PARSE) at = body;
  else if (type === BIND)
    at = buf.indexOf(0, body) + 1 || -1; // after the portal name
  else if ((type === DESCRIBE || type === CLOSE) && buf[body] === STATEMENT) at = body + 1;
  if (at < 0 || at >= next || buf[at] === 0) return null;
  const end = buf.indexOf(0, at);
  return end < next ? [at, end] : null;
}

/**
 * `batch` (whole frontend messages) with every non-empty statement name prefixed by `prefix`;
 * `parsed` collects the new names of the statements it parses. Lengths are rewritten to match.
 * @param {Buffer} batch
 * @param {string} prefix
 * @param {Set<string>} parsed
 */
function renameStatements(batch, prefix, parsed) {
  /** @type {Buffer[]} */
  const parts = [];
  let pos = 0;
  let from = 0;
  while (pos < batch.length) {
    const next = pos + 1 + batch.readInt32BE(pos + 1);
    const span = statementName(batch, pos, next);
    if (span) {
      const [at, end] = span;
      const name = prefix + batch.toString("latin1", at, end);
      if (batch[pos] === PARSE) parsed.add(name);
      const head = Buffer.from(batch.subarray(pos, at));
      head.writeInt32BE(next - pos - 1 + prefix.length, 1);
      parts.push(batch.subarray(from, pos), head, Buffer.from(name, "latin1"), batch.subarray(end, next));
      from = next;
    }
    pos = next;
  }
  if (!parts.length) return batch;
  parts.push(batch.subarray(from));
  return Buffer.concat(parts);
}

/**
 * Close messages for `names` (prepared statements) and a Sync: what a leaving connection leaves behind.
 * @param {Iterable<string>} names
 */
function closeStatements(names) {
  /** @type {Buffer[]} */
  const parts = [];
  for (const name of names) {
    const body = Buffer.from(`S${name}\0`, "latin1");
    const head = Buffer.alloc(5);
    head[0] = CLOSE;
    head.writeInt32BE(4 + body.length, 1);
    parts.push(head, body);
  }
  parts.push(SYNC);
  return Buffer.concat(parts);
}

/**
 * The transaction status of the last ReadyForQuery in `out` (I, T or E), or null when there is none.
 * @param {Uint8Array} out
 */
function lastReadyStatus(out) {
  const n = out.length;
  // ReadyForQuery is always the last message of a batch's answer: 'Z', int32 5, status.
  if (n >= 6 && out[n - 6] === READY_FOR_QUERY && out[n - 2] === 5 && out[n - 3] === 0) return out[n - 1];
  return null;
}

/**
 * Serves `db` (a ready PGlite) on `socketPath`. Returns the listening net.Server. `onIdle` is called
 * whenever the last queued batch has been answered.
 * @param {{ execProtocolRaw(bytes: Uint8Array): Promise<Uint8Array> }} db
 * @param {string} socketPath
 * @param {{ onIdle?: () => void }} [options]
 */
export function servePGlite(db, socketPath, { onIdle } = {}) {
  /**
   * Batches waiting: { conn, bytes } in arrival order; `cleanup` marks one this server adds for a
   * connection that went away (its ROLLBACK, the Close of its statements): run, answer discarded.
   */
  /** @type {{ conn: import("node:net").Socket, bytes: Uint8Array, cleanup?: boolean }[]} */
  const queue = [];
  /** The connection whose transaction is open, or null. @type {import("node:net").Socket | null} */
  let owner = null;
  let running = false;
  const closed = new WeakSet();

  const pump = async () => {
    if (running) return;
    running = true;
    let ran = false;
    try {
      while (queue.length) {
        const i = owner ? queue.findIndex((b) => b.conn === owner) : 0;
        if (i < 0) break; // the transaction's connection has nothing queued yet: everyone else waits
        const { conn, bytes, cleanup } = queue.splice(i, 1)[0];
        if (closed.has(conn) && !cleanup) continue;
        ran = true;
        let out;
        try {
          out = await db.execProtocolRaw(bytes);
        } catch (err) {
          // PGlite itself failed (not an SQL error: those come back as ErrorResponse messages): the
          // connection ends, and its close rolls back a transaction it had open.
          if (cleanup) owner = null;
          else conn.destroy(/** @type {Error} */ (err));
          continue;
        }
        const status = lastReadyStatus(out);
        if (status !== null) owner = status === IDLE ? null : conn;
        // Its connection left while this batch ran and the batch opened a transaction: roll it back.
        if (owner === conn && closed.has(conn)) queue.unshift({ conn, bytes: ROLLBACK, cleanup: true });
        if (!cleanup && !closed.has(conn) && out.length) conn.write(out);
      }
    } finally {
      running = false;
      // Only after work: a pool closing its idle connections (pg's, 10 s after their last use) is none.
      if (ran && !queue.length) onIdle?.();
    }
  };

  let connections = 0;
  const server = net.createServer((conn) => {
    let buffer = Buffer.alloc(0);
    let started = false;
    /** This connection's statement names in PGlite start with this; `parsed`: the names it made. */
    const prefix = `s${++connections}_`;
    /** @type {Set<string>} */
    const parsed = new Set();
    /** Whether the batch being read names a prepared statement (then it is renamed before it runs). */
    let named = false;
    const enqueue = (/** @type {number} */ from, /** @type {number} */ to) => {
      const bytes = Buffer.from(buffer.subarray(from, to));
      queue.push({ conn, bytes: named ? renameStatements(bytes, prefix, parsed) : bytes });
      named = false;
    };

    conn.on("data", (chunk) => {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      let pos = 0;
      let end = 0;
      for (;;) {
        if (!started) {
          if (buffer.length - pos < 8) break;
          const length = buffer.readInt32BE(pos);
          const code = buffer.readInt32BE(pos + 4);
          if (length < 8 || length > 10_000) return conn.destroy();
          if (buffer.length - pos < length) break;
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            conn.write("N"); // no encryption on a private socket; the client goes on in plain text
            pos += length;
            end = pos;
            continue;
          }
          if (code === CANCEL_REQUEST) return conn.destroy(); // one backend: nothing to cancel
          pos += length;
          started = true;
          queue.push({ conn, bytes: Uint8Array.prototype.slice.call(buffer, end, pos) });
          end = pos;
          continue;
        }
        if (buffer.length - pos < 5) break;
        const type = buffer[pos];
        const length = buffer.readInt32BE(pos + 1);
        if (length < 4) return conn.destroy();
        if (type === TERMINATE) {
          conn.end();
          buffer = Buffer.alloc(0);
          void pump();
          return;
        }
        if (buffer.length - pos < 1 + length) {
          if (length > MAX_BATCH_BYTES) return conn.destroy();
          break;
        }
        if (!named && statementName(buffer, pos, pos + 1 + length)) named = true;
        pos += 1 + length;
        if (BATCH_END.has(type)) {
          enqueue(end, pos);
          end = pos;
        }
      }
      if (pos - end > MAX_BATCH_BYTES) return conn.destroy();
      // Keep what is not yet a whole batch (a copy: the chunk's memory is Node's to reuse).
      buffer = end ? Buffer.from(buffer.subarray(end)) : buffer;
      void pump();
    });
    conn.on("error", () => {});
    conn.on("close", () => {
      closed.add(conn);
      for (let i = queue.length - 1; i >= 0; i--) if (queue[i].conn === conn) queue.splice(i, 1);
      // Left inside a transaction: roll it back before anyone else runs.
      if (owner === conn) queue.unshift({ conn, bytes: ROLLBACK, cleanup: true });
      // Its prepared statements would otherwise stay in the one session for good.
      if (parsed.size) queue.push({ conn, bytes: closeStatements(parsed), cleanup: true });
      void pump();
    });
  });
  fs.rmSync(socketPath, { force: true });
  server.listen(socketPath);
  return server;
}

/**
 * The embedded database's data directory named by DATABASE_URL (unset or `pglite:<dir>`, else the
 * default DATA_DIR/pglite; null for `pglite:memory://`), or undefined when it names a server. The
 * same reading as lib/db/connection.ts's parseDatabaseUrl, for the launcher that cannot import it.
 * @param {string | undefined} url
 * @param {string} [dataDir]
 * @returns {string | null | undefined}
 */
export function embeddedDataDir(url, dataDir = "./data") {
  if (url && !url.startsWith("pglite:")) return undefined;
  const rest = url ? url.slice("pglite:".length) : "";
  if (rest === "memory://" || rest === "memory") return null;
  return path.resolve(rest || path.join(dataDir, "pglite"));
}

/**
 * PostgreSQL settings of the embedded database. Its buffer cache (`shared_buffers`, PostgreSQL's
 * default 128 MB) lives in PGlite's WebAssembly memory, which never shrinks: PGlite touched all of
 * it, a large share of the server's resident memory at rest, to cache a database that is mostly a
 * few MB (bench/measured.md, "PGlite buffers"). 16 MB by default; the operating system's page cache
 * still holds the data files.
 * PGLITE_SHARED_BUFFERS (e.g. 64MB) sets it for a larger embedded database.
 */
export function pgliteSettings(env = process.env) {
  const buffers = env.PGLITE_SHARED_BUFFERS || "16MB";
  if (!/^\d+(kB|MB|GB)$/.test(buffers))
    throw new Error(`PGLITE_SHARED_BUFFERS must be a size such as 16MB or 512kB (got "${buffers}")`);
  return ["-c", `shared_buffers=${buffers}`];
}

/** Opens PGlite (with pgvector) on `dataDir`, or in memory when it is null. */
/** @param {string | null} dataDir */
async function openPGlite(dataDir) {
  const [{ PGlite }, { vector }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite-pgvector"),
  ]);
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const options = { extensions: { vector }, startParams: [...PGlite.defaultStartParams, ...pgliteSettings()] };
  const db = dataDir ? new PGlite(dataDir, options) : new PGlite(options);
  await db.waitReady;
  return db;
}

/**
 * Starts the embedded database on a worker thread: PGlite on `dataDir` (null: in memory) served on
 * a Unix socket in a new private directory (mode 0700: no other local user may connect; the socket
 * asks no password). Resolves once it accepts connections, with the directory for `pg`'s `host`
 * (the socket is `.s.PGSQL.5432` in it) and `close()`, which stops the thread and closes PGlite.
 * `onLost(reason)` is called if the thread stops without being asked to (the server cannot go on).
 * @param {{ dataDir: string | null, onLost?: (reason: string) => void }} options
 * @returns {Promise<{ socketDir: string, close: () => Promise<void> }>}
 */
export async function startEmbeddedDatabase({ dataDir, onLost }) {
  pgliteSettings(); // a bad setting is named before a thread starts
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-db-"));
  fs.chmodSync(socketDir, 0o700);
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { pgliteWire: true, dataDir, socketPath: path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`) },
    // The thread allocates little per statement, yet V8 grew its young generation to its largest
    // under load and kept it until its memory reducer ran, well after the idle collection. A smaller
    // cap lowered the peak with no fewer requests served (bench/measured.md, "Database thread").
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  worker.unref();
  try {
    await /** @type {Promise<void>} */ (
      new Promise((resolve, reject) => {
        worker.once("message", (m) =>
          m?.ready ? resolve() : reject(new Error(m?.error ?? "embedded database failed")),
        );
        worker.once("error", reject);
        worker.once("exit", (code) =>
          reject(new Error(`the embedded database thread exited (${code}) before it was ready`)),
        );
      })
    );
  } catch (err) {
    await worker.terminate();
    fs.rmSync(socketDir, { recursive: true, force: true });
    throw err;
  }
  let closing = false;
  let failure = "";
  worker.on("error", (err) => (failure = err?.message ?? String(err)));
  worker.on("exit", (code) => {
    if (!closing) onLost?.(`the embedded database thread stopped (exit code ${code}${failure ? `: ${failure}` : ""})`);
  });
  return {
    socketDir,
    /**
     * Stops taking connections, closes PGlite (its last writes reach the data dir) and ends the
     * thread. Connections still open are cut: end the clients' pools first, or exit right after.
     */
    close: async () => {
      closing = true;
      worker.postMessage("close");
      await /** @type {Promise<void>} */ (
        new Promise((resolve) => worker.once("message", (m) => m?.closed && resolve()))
      );
      fs.rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

if (!isMainThread && parentPort && workerData?.pgliteWire) {
  const port = parentPort;
  try {
    const db = await openPGlite(workerData.dataDir);
    // Opening a new data dir runs PGlite's initdb, a WebAssembly module of its own whose memory is
    // garbage once it is done: collected now (bench/measured.md, "Database thread"). And once the
    // thread has been idle for a while after work (start-up's migrations, a burst of requests): see
    // server/idle-gc.mjs.
    collectGarbage();
    const server = servePGlite(db, workerData.socketPath, { onIdle: collectWhenIdle() });
    server.once("listening", () => port.postMessage({ ready: true }));
    server.once("error", (err) =>
      port.postMessage({ error: `The embedded database could not listen on its socket: ${err.message}` }),
    );
    port.on("message", async (m) => {
      if (m !== "close") return;
      server.close();
      await db.close();
      port.postMessage({ closed: true });
      process.exit(0);
    });
  } catch (err) {
    port.postMessage({
      error: `The embedded database could not open: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
}
