import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, expect, it } from "vitest";
import { runInSandbox, sandboxPool } from "./index";

/**
 * The sandbox's design promise (issue 32): user code runs off the server's event loop, so however
 * much of it spins, an HTTP server in the same process keeps answering. 100 endless loops are
 * started at once; until the last has been stopped at its limit, a ping is sent as soon as the
 * previous one is answered, each timed. A timing assertion, against our habit, because the bound
 * is the promise (issue 32's "Done when"); on a machine loaded by other work the operating system's
 * scheduling alone can exceed it (workers run at a lower priority, worker.mjs, the server's thread not).
 */

const server = http.createServer((_req, res) => res.end("pong"));
// One connection kept open, as a load balancer's health check would: the pings measure the server's
// loop, not the test's own garbage of a socket per ping.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
afterAll(async () => {
  agent.destroy();
  await sandboxPool().close();
  await new Promise((resolve) => server.close(resolve));
});

function ping(port: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/ping", agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(performance.now() - started));
      })
      .on("error", reject);
  });
}

it("answers a ping within 100 ms each while 100 endless loops run in the sandbox", async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await ping(port); // the first request of the process compiles the HTTP code on both sides

  let running = true;
  const runs = Promise.all(
    Array.from({ length: 100 }, () => runInSandbox({ code: "while (true) {}", limits: { timeoutMs: 50 } })),
  ).finally(() => {
    running = false;
  });
  const latencies: number[] = [];
  while (running) latencies.push(await ping(port));

  const outcomes = await runs;
  expect(outcomes.map((o) => o.error?.kind)).toEqual(Array(100).fill("timeout"));
  expect(latencies.length).toBeGreaterThan(10);
  const sorted = [...latencies].sort((a, b) => a - b);
  const slowest = sorted[sorted.length - 1];
  const median = sorted[sorted.length >> 1];
  expect(slowest, `slowest of ${sorted.length} pings (median ${median.toFixed(2)} ms)`).toBeLessThan(100);
}, 60_000);
