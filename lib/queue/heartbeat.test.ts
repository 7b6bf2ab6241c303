import type { ChildProcess } from "node:child_process";
import { Writable } from "node:stream";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startRedisServer, stopRedisServer } from "../../dev/redis-server";
import { createLogger, replaceRootLogger } from "../log";
import { createRedisConnection } from "../redis";
import { listWorkers, startWorkerHeartbeat, WORKER_KEY_PREFIX, type WorkerInfo } from "./heartbeat";

// A private redis-server on a free port (never the developer's 6379), killed after the suite.
let port: number;
let server: ChildProcess;
let redis: Redis;
let admin: Redis;

async function waitFor(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  const ok = async () => {
    try {
      return await check();
    } catch {
      return false;
    }
  };
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}

const info = (workerId: string, active: () => number = () => 0): WorkerInfo => ({
  workerId,
  host: "test-host",
  pid: 4242,
  concurrency: 3,
  queues: ["predictions", "upserts"],
  startedAt: new Date().toISOString(),
  activeJobs: active,
});

beforeAll(async () => {
  port = await freePort();
  server = await startRedisServer(port);
  const url = `redis://127.0.0.1:${port}`;
  redis = createRedisConnection(url, "command", () => {});
  admin = createRedisConnection(url, "command", () => {});
  await waitFor(() => redis.status === "ready" && admin.status === "ready");
});

afterAll(async () => {
  redis.disconnect();
  admin.disconnect();
  await stopRedisServer(server);
});

describe("worker heartbeats", () => {
  it("writes the worker's key with a TTL, refreshes what it reports, and deletes it on stop", async () => {
    let active = 0;
    const stop = startWorkerHeartbeat(
      redis,
      info("w-1", () => active),
      { everyMs: 50 },
    );
    await waitFor(async () => (await listWorkers(admin)).some((w) => w.workerId === "w-1"));
    const [w] = (await listWorkers(admin)).filter((x) => x.workerId === "w-1");
    expect(w).toMatchObject({ host: "test-host", pid: 4242, concurrency: 3, queues: ["predictions", "upserts"] });
    expect(w.activeJobs).toBe(0);
    const ttl = await admin.pttl(`${WORKER_KEY_PREFIX}w-1`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(15_000);

    active = 2;
    await waitFor(async () => (await listWorkers(admin)).find((x) => x.workerId === "w-1")?.activeJobs === 2);

    await stop();
    expect(await admin.exists(`${WORKER_KEY_PREFIX}w-1`)).toBe(0);
    expect((await listWorkers(admin)).map((x) => x.workerId)).not.toContain("w-1");
  });

  it("a worker that dies without stopping drops out when its key expires", async () => {
    const stop = startWorkerHeartbeat(redis, info("w-dead"), { everyMs: 60_000, ttlMs: 300 });
    await waitFor(async () => (await listWorkers(admin)).some((w) => w.workerId === "w-dead"));
    await waitFor(async () => !(await listWorkers(admin)).some((w) => w.workerId === "w-dead"));
    await stop();
  });

  it("lists every worker with SCAN among unrelated keys", async () => {
    const pipeline = admin.pipeline();
    for (let i = 0; i < 500; i++) pipeline.set(`other:${i}`, "x");
    for (let i = 0; i < 250; i++)
      pipeline.set(
        `${WORKER_KEY_PREFIX}bulk-${i}`,
        JSON.stringify({ ...info(`bulk-${i}`), activeJobs: 0 }),
        "PX",
        60_000,
      );
    pipeline.set(`${WORKER_KEY_PREFIX}garbage`, "not json", "PX", 60_000);
    await pipeline.exec();
    const listed = (await listWorkers(admin)).filter((w) => w.workerId.startsWith("bulk-"));
    expect(listed).toHaveLength(250);
    await admin.del(
      ...Array.from({ length: 250 }, (_, i) => `${WORKER_KEY_PREFIX}bulk-${i}`),
      `${WORKER_KEY_PREFIX}garbage`,
    );
  });

  it("when Redis goes away it neither throws nor floods the log, and comes back by itself", async () => {
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    const restore = replaceRootLogger(createLogger({ level: "info", destination }));
    try {
      // Each beat reads the active job count first: counting the reads counts the beats.
      let beats = 0;
      const counted = info("w-outage", () => {
        beats++;
        return 0;
      });
      const stop = startWorkerHeartbeat(redis, counted, { everyMs: 50 });
      await waitFor(async () => (await listWorkers(admin)).some((w) => w.workerId === "w-outage"));

      await stopRedisServer(server);
      await waitFor(() => lines.some((l) => l.msg === "worker heartbeat failed (retrying)"));
      const firstFailure = beats;
      await waitFor(() => beats >= firstFailure + 10); // 10 more failed beats
      expect(lines.filter((l) => l.msg === "worker heartbeat failed (retrying)")).toHaveLength(1);

      server = await startRedisServer(port); // an empty Redis: the key must be written again
      await waitFor(async () => (await listWorkers(admin)).some((w) => w.workerId === "w-outage"), 15_000);
      await waitFor(() => lines.some((l) => l.msg === "worker heartbeat written again"));
      await stop();
      expect(await admin.exists(`${WORKER_KEY_PREFIX}w-outage`)).toBe(0);
    } finally {
      restore();
    }
  }, 40_000);
});
