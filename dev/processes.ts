import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freePort } from "./redis-server";

// Real app processes for multi-process tests and the bench: API processes (`npm start` without the
// build step) and queue workers (`npm run worker`), each on its own free port, with their output
// kept so a failure can say what the process printed.

const root = path.resolve(import.meta.dirname, "..");

export type RunningProcess = {
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr, interleaved). */
  output(): string;
  /** Sends a signal (default SIGTERM) and resolves with the exit once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
  /** SIGKILL, and resolves once the process is gone. */
  kill(): Promise<Exit>;
  /** Settles when the process exits, whoever ended it. */
  exited: Promise<Exit>;
};

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type SpawnOptions = {
  command: string;
  args: string[];
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Ready when this returns true for a line of output (stdout or stderr), or resolves true (polled). */
  ready: { line: (line: string) => boolean } | { poll: () => Promise<boolean> };
  /** Give up (and kill the process) after this long; default 60 s. */
  timeoutMs?: number;
  /** Name for error messages. */
  name?: string;
};

/** Keeps at most the last `max` characters of output. */
const MAX_OUTPUT = 200_000;

/**
 * The last `max` characters a process printed, kept as the chunks it printed them in and joined when
 * read or once twice `max` is held. (Appending each chunk to one string and slicing it copied up to `max` characters per
 * chunk: with a server logging a line per request, ~200 KB of garbage per request in the process
 * watching it, whose collections then showed up in the benches' latencies.)
 */
export class OutputTail {
  private chunks: string[] = [];
  private size = 0;
  constructor(private readonly max: number) {}

  push(text: string): void {
    this.chunks.push(text);
    this.size += text.length;
    // Cut back to `max` once twice that is held: a copy of `max` characters per `max` pushed.
    if (this.size > 2 * this.max) {
      const kept = this.text();
      this.chunks = [kept];
      this.size = kept.length;
    }
  }

  text(): string {
    const all = this.chunks.join("");
    return all.length > this.max ? all.slice(-this.max) : all;
  }
}

/**
 * Spawns a process and resolves once it is ready; rejects (with its output in the message) if it
 * exits first or is not ready in time (then it is killed).
 */
export async function spawnReady(options: SpawnOptions): Promise<RunningProcess> {
  const name = options.name ?? path.basename(options.args.at(-1) ?? options.command);
  const child = spawn(options.command, options.args, {
    cwd: options.cwd ?? root,
    env: { ...process.env, ...options.env } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: tsx runs the script in a child process, which a SIGKILL of tsx alone
    // would leave running; kill() ends the whole group.
    detached: true,
  });
  const output = new OutputTail(MAX_OUTPUT);
  const lineListeners = new Set<(line: string) => void>();
  const partial = { stdout: "", stderr: "" };
  const onData = (stream: "stdout" | "stderr") => (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    output.push(text);
    const lines = (partial[stream] + text).split("\n");
    partial[stream] = lines.pop() ?? "";
    for (const line of lines) for (const l of lineListeners) l(line);
  };
  child.stdout?.on("data", onData("stdout"));
  child.stderr?.on("data", onData("stderr"));

  const exited = new Promise<Exit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (gone()) return exited;
    // Other signals go to the process only (tsx relays them once; a signal to the whole group would
    // reach the script twice, which a graceful shutdown reads as "exit at once").
    if (signal === "SIGKILL" && child.pid) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    } else child.kill(signal);
    return exited;
  };
  const running: RunningProcess = { child, output: () => output.text(), stop, kill: () => stop("SIGKILL"), exited };

  const timeoutMs = options.timeoutMs ?? 60_000;
  const failure = (why: string) =>
    new Error(`${name} ${why}. Its output:\n${output.text().slice(-4000) || "(nothing)"}`);

  const ready = new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      lineListeners.clear();
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(() => settle(failure(`was not ready after ${timeoutMs} ms`)), timeoutMs);
    void exited.then((e) => settle(failure(`exited before it was ready (code ${e.code}, signal ${e.signal})`)));
    child.once("error", (err) => settle(failure(`could not start: ${err.message}`)));
    const readiness = options.ready;
    if ("line" in readiness) {
      lineListeners.add((line) => {
        if (readiness.line(line)) settle();
      });
    } else {
      void (async () => {
        while (!settled) {
          if (await readiness.poll().catch(() => false)) return settle();
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
    }
  });

  try {
    await ready;
  } catch (err) {
    await running.kill();
    throw err;
  }
  return running;
}

/**
 * The settings of an API process on its own embedded database in `dataDir`, with a first admin and
 * the scripted model at `model` as its model (allowed as an outbound host); `extra` adds or overrides.
 */
export function embeddedAppEnv(opts: {
  dataDir: string;
  admin: { email: string; password: string };
  model: { url: string; port: number };
  extra?: Record<string, string>;
}): Record<string, string> {
  return {
    DATABASE_URL: `pglite:${opts.dataDir}/pglite`,
    DATA_DIR: opts.dataDir,
    ADMIN_EMAIL: opts.admin.email,
    ADMIN_PASSWORD: opts.admin.password,
    LOAD_EXAMPLE_FLOWS: "true",
    OPENAI_API_KEY: "stub-key",
    OPENAI_BASE_URL: opts.model.url,
    OPENAI_MODEL: "stub-model",
    OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${opts.model.port}`,
    ...opts.extra,
  };
}

/** An Authorization header for a user's e-mail and password (Basic). */
export const basicAuth = (user: { email: string; password: string }) => ({
  authorization: `Basic ${Buffer.from(`${user.email}:${user.password}`).toString("base64")}`,
});

/** Whether a production build exists (startApiProcess serves it and never builds). */
export function hasBuild(): boolean {
  return fs.existsSync(path.join(root, ".next", "BUILD_ID"));
}

/**
 * An API process: `node server/start.mjs --no-build` on a free PORT of 127.0.0.1 with `env` added
 * to this process's environment, ready once GET /api/v1/ping answers 200. Needs a build.
 */
export async function startApiProcess(
  env: Record<string, string | undefined> = {},
  options: { timeoutMs?: number } = {},
): Promise<RunningProcess & { url: string; port: number }> {
  if (!hasBuild()) throw new Error("startApiProcess needs a build (.next/BUILD_ID): run `npm run build` first");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const running = await spawnReady({
    name: `API process on port ${port}`,
    command: process.execPath,
    args: ["server/start.mjs", "--no-build"],
    env: { NEXTAUTH_URL: url, ...env, HOST: "127.0.0.1", PORT: String(port) },
    ready: {
      poll: async () => {
        const res = await fetch(`${url}/api/v1/ping`, { signal: AbortSignal.timeout(2_000) });
        await res.body?.cancel();
        return res.ok;
      },
    },
    timeoutMs: options.timeoutMs ?? 120_000,
  });
  return { ...running, url, port };
}

/** Default readiness of a worker: it prints `worker ready` (plain or in a JSON log line). */
export const WORKER_READY = (line: string) => line.includes("worker ready");

/**
 * A queue worker: `node node_modules/tsx/dist/cli.mjs server/worker.ts` (what `npm run worker`
 * runs) with `env` added, ready once a line of its output satisfies `ready` (default WORKER_READY).
 */
export async function startWorkerProcess(
  env: Record<string, string | undefined> = {},
  options: { ready?: (line: string) => boolean; timeoutMs?: number; script?: string } = {},
): Promise<RunningProcess> {
  const script = options.script ?? "server/worker.ts";
  return spawnReady({
    name: `worker (${script})`,
    command: process.execPath,
    args: ["node_modules/tsx/dist/cli.mjs", script],
    env,
    ready: { line: options.ready ?? WORKER_READY },
    timeoutMs: options.timeoutMs ?? 60_000,
  });
}
