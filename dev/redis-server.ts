import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import { Redis } from "ioredis";

/** A free TCP port on 127.0.0.1 (never the developer's 6379). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A private redis-server for a test, on its own port, keeping nothing on disk (needs `redis-server`
 * on PATH). Resolves once it answers PING.
 */
export async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  // Not on PATH (ENOENT) comes as an event: without a listener it would crash the process.
  let spawnError: Error | undefined;
  child.once("error", (err) => {
    spawnError = err;
  });
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (spawnError) throw new Error(`cannot start redis-server (is it on PATH?): ${spawnError.message}`);
    const probe = new Redis(port, "127.0.0.1", {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on("error", () => {});
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      return child;
    } catch {
      probe.disconnect();
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`redis-server did not start on port ${port}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Kills a server started by startRedisServer and waits until it is gone. */
export async function stopRedisServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
}
