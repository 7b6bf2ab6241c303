import { type RunningProcess, spawnReady } from "../../dev/processes";

/**
 * Starts tests/support/app-process.ts (the app's start-up and every real route handler, no build) as
 * a child process with `env`; resolves once it prints `READY <url>`. For tests that kill a server
 * mid-run and start another on the same data.
 */
export async function startAppProcess(env: Record<string, string>): Promise<RunningProcess & { url: string }> {
  let url = "";
  const proc = await spawnReady({
    name: "app process",
    command: process.execPath,
    args: ["--import", "tsx", "tests/support/app-process.ts"],
    env,
    ready: {
      line: (line) => {
        const m = /^READY (\S+)/.exec(line);
        if (m) url = m[1]!;
        return !!m;
      },
    },
    timeoutMs: 120_000,
  });
  return { ...proc, url };
}
