import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./redis-server";

// A private PostgreSQL server for fault tests (stop it, start it again, see what the app does),
// never the machine's server on 5432. initdb into a temp dir, pg_ctl start on a free port of
// 127.0.0.1, trust authentication (local test only), fsync off. initdb and postgres refuse to run
// as root: as root we run them as the `postgres` OS user (runuser) and hand it the temp dir.

const run = promisify(execFile);

export type PostgresServer = {
  /** postgresql://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** The data directory: kept across stop()/start(), removed by cleanup(). */
  dataDir: string;
  /** Stops the server; `immediate` kills it like a crash (no checkpoint), else open sessions are cut (fast). */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** Starts it again on the same port and data (a real restart). */
  start(): Promise<void>;
  running(): boolean;
  /** Stops the server if running and removes its directory. */
  cleanup(): Promise<void>;
};

/** The bin directory of the newest PostgreSQL install (PG_BIN overrides), or null. */
export function postgresBinDir(): string | null {
  const candidates = process.env.PG_BIN
    ? [process.env.PG_BIN]
    : fs.existsSync("/usr/lib/postgresql")
      ? fs
          .readdirSync("/usr/lib/postgresql")
          .sort((a, b) => Number(b) - Number(a))
          .map((v) => `/usr/lib/postgresql/${v}/bin`)
      : [];
  return (
    candidates.find((dir) => fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "pg_ctl"))) ?? null
  );
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/** Why a private server cannot run here, or null when it can (for `it.skipIf`). */
export function postgresServerUnavailable(): string | null {
  if (!postgresBinDir()) return "no PostgreSQL binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or PG_BIN";
  if (isRoot() && !fs.existsSync("/usr/sbin/runuser") && !fs.existsSync("/sbin/runuser"))
    return "running as root without runuser: initdb refuses root";
  return null;
}

/** Runs a PostgreSQL binary, as the postgres OS user when we are root. */
async function pgRun(bin: string, args: string[]): Promise<string> {
  const file = path.join(postgresBinDir() ?? "", bin);
  const [cmd, argv] = isRoot() ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
  try {
    const { stdout } = await run(cmd, argv, { timeout: 60_000 });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${bin} ${args.join(" ")} failed: ${e.stderr?.trim() || e.message}`);
  }
}

/** initdb + pg_ctl start of a private server; resolves once it accepts connections. */
export async function startPostgresServer(options: { port?: number } = {}): Promise<PostgresServer> {
  const unavailable = postgresServerUnavailable();
  if (unavailable) throw new Error(`Cannot start a private PostgreSQL: ${unavailable}`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-pg-"));
  if (isRoot()) await run("chown", ["postgres:postgres", root]);
  const dataDir = path.join(root, "data");
  const logFile = path.join(root, "server.log");
  const port = options.port ?? (await freePort());
  let up = false;

  await pgRun("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
  const serverOptions = [
    `-p ${port}`,
    `-k ${root}`, // the Unix socket in our dir, not /var/run/postgresql
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c full_page_writes=off",
  ].join(" ");

  const server: PostgresServer = {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    running: () => up,
    async start() {
      if (up) return;
      try {
        await pgRun("pg_ctl", ["-D", dataDir, "-o", serverOptions, "-l", logFile, "-w", "-t", "30", "start"]);
      } catch (err) {
        const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").slice(-2000) : "";
        throw new Error(`${(err as Error).message}\n${log}`);
      }
      up = true;
    },
    async stop(mode = "fast") {
      if (!up) return;
      await pgRun("pg_ctl", ["-D", dataDir, "-m", mode, "-w", "-t", "30", "stop"]);
      up = false;
    },
    async cleanup() {
      try {
        await server.stop("immediate");
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  };
  try {
    await server.start();
  } catch (err) {
    fs.rmSync(root, { recursive: true, force: true });
    throw err;
  }
  return server;
}
