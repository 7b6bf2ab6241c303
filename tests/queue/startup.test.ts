import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Start-up refusals of `npm run worker` and `npm start` in queue mode: one line naming the variable,
// a non-zero exit, never a process that lingers without working.

const root = path.resolve(import.meta.dirname, "../..");

/** Runs the worker script with `env` (not this process's) and collects its exit code and output. */
function runWorker(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "server/worker.ts"], {
      cwd: root,
      env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const lines = (text: string) => text.split("\n").filter((l) => l.trim());

describe("queue-mode start-up refusals", () => {
  it("a worker without REDIS_URL exits 1 with one line naming REDIS_URL", async () => {
    const run = await runWorker({ MODE: "queue", DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/postgres" });
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^\[switchyard worker\] cannot start: Invalid configuration: REDIS_URL: MODE=queue needs/,
    );
  });

  it("a worker on PGlite (DATABASE_URL unset) exits 1 with one line naming DATABASE_URL", async () => {
    const run = await runWorker({ MODE: "queue", REDIS_URL: "redis://127.0.0.1:6399" });
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/DATABASE_URL: MODE=queue needs DATABASE_URL=postgresql:/);
  });

  it("a worker outside queue mode refuses to start, saying how to start one", async () => {
    const run = await runWorker({});
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/set MODE=queue/);
  });

  it("the API's start-up (instrumentation) refuses the same settings in one line", async () => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        'const { bootstrapOrExit } = await import("./lib/services/bootstrap.ts"); await bootstrapOrExit();',
      ],
      {
        cwd: root,
        env: {
          NODE_ENV: "production",
          PATH: process.env.PATH ?? "",
          MODE: "queue",
          DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/x",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    expect(code).toBe(1);
    expect(lines(stderr)).toHaveLength(1);
    expect(stderr).toMatch(/cannot start: Invalid configuration: REDIS_URL: MODE=queue needs REDIS_URL/);
  });
});
