import type { ChildProcess } from "node:child_process";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { freePort, startRedisServer, stopRedisServer } from "../../dev/redis-server";
import { enforceRateLimit, RateLimits } from "../access/rate-limit";
import { resetEnvForTests } from "../env";
import { isAppError } from "@/common/errors";
import { Cache, createRelayedBus, forgetProcessState, on, publishChange, stateBus } from "../state";
import type { StateEvent } from "../state/events";
import { createRedisConnection, createRedisTransport, redisConnections, STATE_CHANNEL } from ".";

// A private redis-server on a free port (never the developer's 6379), killed after the suite.
let port: number;
let server: ChildProcess;
let url: string;
const opened: Redis[] = [];
const quiet = () => {};

function connect(role: "command" | "subscriber"): Redis {
  const redis = createRedisConnection(url, role, quiet);
  opened.push(redis);
  return redis;
}

/** A bus of its own process: own connections, own process id. */
function processBus(processId: string, channel: string, log: (msg: string, err: unknown) => void = quiet) {
  const transport = createRedisTransport({
    publisher: connect("command"),
    subscriber: connect("subscriber"),
    channel,
    processId,
  });
  return createRelayedBus(transport, log);
}

async function waitFor(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  // A command on a connection that is not ready yet fails at once (no offline queue): try again.
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

/** Waits until `n` connections listen on the channel (SUBSCRIBE is asynchronous). */
async function subscribers(channel: string, n: number, admin: Redis) {
  await waitFor(async () => {
    const [, count] = (await admin.pubsub("NUMSUB", channel)) as [string, number];
    return Number(count) >= n;
  });
}

function useRedisForThisProcess() {
  process.env.REDIS_URL = url;
  resetEnvForTests();
  for (const name of ["bus", "rateLimits", "redis"] as const) forgetProcessState(name);
}

beforeAll(async () => {
  port = await freePort();
  url = `redis://127.0.0.1:${port}`;
  server = await startRedisServer(port);
});

afterEach(() => {
  if (process.env.REDIS_URL) {
    const { command, subscriber } = redisConnections(url);
    command.disconnect();
    subscriber.disconnect();
  }
  delete process.env.REDIS_URL;
  resetEnvForTests();
  for (const name of ["bus", "rateLimits", "redis"] as const) forgetProcessState(name);
});

afterAll(async () => {
  for (const redis of opened) redis.disconnect();
  await stopRedisServer(server);
});

describe("state events over Redis", () => {
  it("a change published in one process drops the matching cache entry in another, once", async () => {
    const channel = "test:drop";
    const a = processBus("A", channel);
    const b = processBus("B", channel);
    await subscribers(channel, 2, connect("command"));

    const cacheB = new Cache<string>({ max: 10 });
    await cacheB.get("cred-1", async () => "values");
    await cacheB.get("cred-2", async () => "values");
    // A loader that returns nothing caches nothing: undefined means "not cached".
    const has = async (key: string) => (await cacheB.get(key, async () => undefined)) !== undefined;
    b.subscribe(on({ "credential.updated": (e) => cacheB.delete(e.credentialId) }));
    const seenByA: StateEvent[] = [];
    a.subscribe((e) => seenByA.push(e));

    await a.publish({ type: "credential.updated", credentialId: "cred-1" });
    expect(seenByA).toHaveLength(1); // delivered locally before publish resolved
    await waitFor(async () => !(await has("cred-1")));
    expect(await has("cred-2")).toBe(true);

    // A's own message came back from Redis too; it was skipped (a second event would be here).
    await b.publish({ type: "chatflow.saved", chatflowId: "after" });
    await waitFor(() => seenByA.length === 2);
    expect(seenByA.map((e) => e.type)).toEqual(["credential.updated", "chatflow.saved"]);
  });

  it("ignores malformed messages and logs them", async () => {
    const channel = "test:malformed";
    const log = vi.fn();
    const b = processBus("B", channel, log);
    const seen: StateEvent[] = [];
    b.subscribe((e) => seen.push(e));
    const raw = connect("command");
    await subscribers(channel, 1, raw);

    await raw.publish(channel, "not json");
    await raw.publish(channel, JSON.stringify({ from: "X", event: { type: "credential.updated" } }));
    await raw.publish(channel, JSON.stringify({ from: "X", event: { type: "nope", credentialId: "c" } }));
    await raw.publish(channel, JSON.stringify({ from: "X", event: { type: "chatflow.deleted", chatflowId: "cf" } }));
    await waitFor(() => seen.length > 0);

    expect(seen).toEqual([{ type: "chatflow.deleted", chatflowId: "cf" }]);
    const ignored = log.mock.calls.filter(([msg]) => String(msg).includes("malformed"));
    expect(ignored).toHaveLength(3);
  });
});

describe("rate limits in Redis", () => {
  it("two processes together allow exactly max, then 429 with Retry-After", async () => {
    useRedisForThisProcess();
    const otherConnection = connect("command");
    const other = new RateLimits(otherConnection); // a second process on the same Redis
    await waitFor(() => redisConnections(url).command.status === "ready" && otherConnection.status === "ready");
    const key = `shared:${Date.now()}`;
    for (let i = 0; i < 3; i++) await enforceRateLimit(key, 5, 60_000);
    expect(await other.hit(key, 5, 60_000)).toBe(0);
    expect(await other.hit(key, 5, 60_000)).toBe(0);

    const err = await enforceRateLimit(key, 5, 60_000).catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe("rate_limited");
    const retryAfter = Number((err as { headers?: Record<string, string> }).headers?.["Retry-After"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await other.hit(key, 5, 60_000)).toBeGreaterThan(0);
  });
});

describe("when Redis goes away", () => {
  it("rate limits fall back to this process, publishing neither throws nor hangs, and the bus recovers", async () => {
    useRedisForThisProcess();
    const channel = STATE_CHANNEL;
    const bus = stateBus(); // this process's bus, relayed over REDIS_URL
    const seen: StateEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    const other = processBus("other", channel);
    const admin = connect("command");
    await subscribers(channel, 2, admin);
    await waitFor(() => redisConnections(url).command.status === "ready");

    await stopRedisServer(server);
    await waitFor(() => redisConnections(url).command.status !== "ready");

    let started = Date.now();
    await enforceRateLimit(`down:${Date.now()}`, 2, 60_000); // insurance limiter: allowed
    expect(Date.now() - started).toBeLessThan(2_000);
    const key = `down-limit:${Date.now()}`;
    await enforceRateLimit(key, 1, 60_000);
    await expect(enforceRateLimit(key, 1, 60_000)).rejects.toMatchObject({ code: "rate_limited" });

    started = Date.now();
    await expect(publishChange({ type: "chatflow.saved", chatflowId: "during-outage" })).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(seen).toContainEqual({ type: "chatflow.saved", chatflowId: "during-outage" }); // local delivery still works

    server = await startRedisServer(port);
    // The subscriber reconnects by itself; events of the outage may be lost, so caches are told to resync.
    await waitFor(() => seen.some((e) => e.type === "state.resync"), 15_000);
    await waitFor(async () => {
      await other.publish({ type: "credential.deleted", credentialId: "after-restart" });
      return seen.some((e) => e.type === "credential.deleted");
    }, 15_000);
    expect(seen).toContainEqual({ type: "credential.deleted", credentialId: "after-restart" });
  }, 40_000);
});
