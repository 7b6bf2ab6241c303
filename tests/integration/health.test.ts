import type { ChildProcess } from "node:child_process";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as health from "../../app/api/v1/health/route";
import * as ready from "../../app/api/v1/health/ready/route";
import * as chatflows from "../../app/api/v1/chatflows/route";
import { freePort, startRedisServer, stopRedisServer } from "../../dev/redis-server";
import { closeDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { startWorkerHeartbeat } from "../../lib/queue/heartbeat";
import { createRedisConnection, redisConnections } from "../../lib/redis";
import { forgetProcessState } from "../../lib/state";
import { setupFirstAdmin } from "../../lib/services/users";
import { auth, call } from "../support/http";
import { startTcpProxy, type TcpProxy } from "../../dev/tcp-proxy";

// /api/v1/health (alive) and /api/v1/health/ready (database; in queue mode Redis and workers),
// and the database going away: 503 naming it on every route, back to 200 with nothing restarted.
const serverUrl = process.env.TEST_PG_URL;

async function waitFor(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().valueOf())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("health", () => {
  it("/health answers 200 with the mode and uptime, any caller, with a request id", async () => {
    const res = await call(health.GET as never, { headers: { authorization: "Bearer nonsense" } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "ok", mode: "embedded" });
    expect(typeof res.json.uptimeSec).toBe("number");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const post = await call(health.POST as never, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toContain("GET");
  });

  it("/health/ready in embedded mode checks the database only", async () => {
    const res = await call(ready.GET as never);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("ready");
    expect(Object.keys(res.json.checks)).toEqual(["database"]);
    expect(res.json.checks.database).toMatchObject({ ok: true });
    expect(typeof res.json.checks.database.ms).toBe("number");
  });
});

// Runs in `npm test`'s PostgreSQL step (TEST_PG_URL, scripts/test-all.sh): queue mode needs
// PostgreSQL (PGlite belongs to one process). Skipped in the PGlite runs, which have no server.
describe.runIf(serverUrl)("queue mode readiness: Redis and workers", () => {
  let port: number;
  let server: ChildProcess;
  let url: string;
  let other: Redis;

  beforeAll(async () => {
    port = await freePort();
    url = `redis://:redis-secret-pw@127.0.0.1:${port}`;
    server = await startRedisServer(port);
    process.env.MODE = "queue";
    process.env.REDIS_URL = url;
    resetEnvForTests();
    forgetProcessState("redis");
    other = createRedisConnection(`redis://127.0.0.1:${port}`, "command", () => {});
  });

  afterAll(async () => {
    const { command, subscriber } = redisConnections(url);
    command.disconnect();
    subscriber.disconnect();
    other.disconnect();
    forgetProcessState("redis");
    process.env.MODE = "embedded";
    delete process.env.REDIS_URL;
    resetEnvForTests();
    await stopRedisServer(server);
  });

  it("503 naming the missing worker, ready with a heartbeat, 503 naming Redis while it is down, ready after", {
    timeout: 60_000,
  }, async () => {
    // The first check of a fresh process (its Redis connection is created by it) sees Redis up.
    let res = await call(ready.GET as never);
    expect(res.json.checks.redis, JSON.stringify(res.json)).toMatchObject({ ok: true });
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ status: "unavailable", mode: "queue", error: { code: "not_ready" } });
    expect(res.json.checks.database.ok).toBe(true);
    expect(res.json.checks.workers).toMatchObject({ ok: false, count: 0 });
    expect(res.json.checks.workers.error).toMatch(/no worker heartbeat/);
    expect(res.json.error.message).toMatch(/workers: no worker heartbeat/);

    await waitFor(() => other.status === "ready");
    const stop = startWorkerHeartbeat(
      other,
      {
        workerId: "health-test",
        host: "h",
        pid: 1,
        concurrency: 1,
        queues: ["predictions"],
        startedAt: new Date().toISOString(),
        activeJobs: () => 0,
      },
      { everyMs: 100 },
    );
    await waitFor(async () => (await call(ready.GET as never)).status === 200);
    res = await call(ready.GET as never);
    expect(res.json).toMatchObject({
      status: "ready",
      checks: { redis: { ok: true }, workers: { ok: true, count: 1 } },
    });

    await stopRedisServer(server);
    await waitFor(async () => (await call(ready.GET as never)).json.checks.redis.ok === false);
    res = await call(ready.GET as never);
    expect(res.status).toBe(503);
    expect(res.json.checks.redis.error).toMatch(
      new RegExp(`^Redis at 127\\.0\\.0\\.1:${port} is unreachable \\(.+\\)$`),
    );
    expect(res.json.error.message).toContain(`redis: Redis at 127.0.0.1:${port}`);
    expect(res.text).not.toContain("redis-secret-pw");
    expect(res.json.checks.database.ok).toBe(true);

    server = await startRedisServer(port);
    await waitFor(async () => (await call(ready.GET as never)).status === 200, 30_000);
    await stop();
  });
});

// Runs in `npm test`'s PostgreSQL step (TEST_PG_URL, scripts/test-all.sh): it cuts the database
// server's connections through a TCP proxy. Skipped in the PGlite runs, which have no server.
describe.runIf(serverUrl)("PostgreSQL going away and coming back", () => {
  let proxy: TcpProxy;
  let direct: string;
  let session: Record<string, string>;

  beforeAll(async () => {
    direct = process.env.DATABASE_URL!;
    const target = new URL(direct);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    // The same database through the proxy, with a password in the URL that must never be shown.
    const viaProxy = new URL(direct);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    viaProxy.password = "pg-secret-pw";
    await closeDb();
    process.env.DATABASE_URL = viaProxy.toString();
    resetEnvForTests();
    const admin = await setupFirstAdmin({ email: "admin@health.test", name: "Admin", password: "admin-pass-123" });
    session = await auth.session(admin.id, "admin@health.test");
  });

  afterAll(async () => {
    await closeDb();
    process.env.DATABASE_URL = direct;
    resetEnvForTests();
    await proxy.close();
  });

  afterEach(() => proxy.up());

  it("answers 503 database_unavailable on an API route and /health/ready while down, 200 again after", {
    timeout: 60_000,
  }, async () => {
    expect((await call(chatflows.GET as never, { headers: session })).status).toBe(200);
    expect((await call(ready.GET as never)).status).toBe(200);

    await proxy.down();
    const list = await call(chatflows.GET as never, { headers: session });
    expect(list.status).toBe(503);
    expect(list.json.error.code).toBe("database_unavailable");
    expect(list.json.error.message).toMatch(new RegExp(`^PostgreSQL at 127\\.0\\.0\\.1:${proxy.port} is unreachable`));
    expect(list.headers.get("x-request-id")).toBeTruthy();

    const down = await call(ready.GET as never);
    expect(down.status).toBe(503);
    expect(down.json.checks.database.ok).toBe(false);
    expect(down.json.checks.database.error).toMatch(new RegExp(`^PostgreSQL at 127\\.0\\.0\\.1:${proxy.port} `));
    expect(down.json.error).toMatchObject({ code: "not_ready" });
    for (const text of [list.text, down.text]) expect(text).not.toContain("pg-secret-pw");

    await proxy.up();
    await waitFor(async () => (await call(chatflows.GET as never, { headers: session })).status === 200);
    expect((await call(ready.GET as never)).status).toBe(200);
  });
});
