import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

/** The private redis-server of this test file (setup.ts); tests stop and restart it. */
export const queueRedis: { port: number; server?: ChildProcess } = { port: 0 };

const root = path.resolve(import.meta.dirname, "../..");
const children = new Set<ChildProcess>();

export type SpawnedWorker = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/**
 * Spawns a worker (`npm run worker`'s server/worker.ts) with this process's environment; resolves
 * once it logs its start line. Node itself with tsx's loader, not the tsx binary: the binary runs
 * the script in a child process, and a SIGKILL must hit the worker itself.
 */
export async function spawnWorker(extraEnv: Record<string, string> = {}): Promise<SpawnedWorker> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/worker.ts"], {
    cwd: root,
    env: { ...process.env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let out = "";
  child.stdout?.on("data", (d) => (out += d));
  child.stderr?.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  await waitFor(
    () => out.includes("worker ready") || child.exitCode !== null,
    // A worker's start (tsx loading the app) took 48 s on a loaded 2-core machine.
    120_000,
    () => out,
  );
  if (child.exitCode !== null) throw new Error(`worker exited at start:\n${out}`);
  return { child, output: () => out, exited };
}

/** Kills every worker still running (afterAll). */
export async function killWorkers(): Promise<void> {
  await Promise.all(
    [...children].map((c) => {
      const gone = new Promise((r) => c.once("exit", r));
      c.kill("SIGKILL");
      return gone;
    }),
  );
}

/** Polls `check` until it holds (a state nothing announces: a row, a log line, a counter), or fails after `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 15_000, why?: () => string) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting${why ? `:\n${why()}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
