import type { ChildProcess } from "node:child_process";
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as adminQueue from "../../app/api/v1/admin/queue/route";
import { freePort, startRedisServer, stopRedisServer } from "../../dev/redis-server";
import { resetEnvForTests } from "../../lib/env";
import { getQueue } from "../../lib/jobs";
import { startWorkerHeartbeat } from "../../lib/queue/heartbeat";
import { QUEUE_NAMES, QUEUE_PREFIX } from "../../lib/queue/names";
import { createRedisConnection, redisConnections } from "../../lib/redis";
import { createApiKey } from "../../lib/services/api-keys";
import { createUser, setupFirstAdmin } from "../../lib/services/users";
import { userCaller } from "../../dev/callers";
import { forgetProcessState } from "../../lib/state";
import { auth, call } from "../support/http";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { QueueView } from "../../components/studio/QueueView";

// GET /api/v1/admin/queue: admins only (the permission table's "queue.view"; keys never), in
// embedded mode the in-process queues, in queue mode BullMQ's queues, running jobs and workers.
const serverUrl = process.env.TEST_PG_URL;
let adminHeaders: Record<string, string>;
let builderHeaders: Record<string, string>;
let adminKeyHeaders: Record<string, string>;

beforeAll(async () => {
  const admin = await setupFirstAdmin({ email: "admin@queue.test", name: "Admin", password: "admin-pass-123" });
  const builder = await createUser({
    email: "builder@queue.test",
    name: "Builder",
    password: "builder-pass-123",
    role: "builder",
  });
  adminHeaders = await auth.session(admin.id, "admin@queue.test");
  builderHeaders = await auth.session(builder.id, "builder@queue.test");
  const key = await createApiKey(
    { name: "all", permissions: ["predict", "upsert", "chatflows", "messages", "domains"], chatflowIds: [] },
    userCaller(admin),
  );
  adminKeyHeaders = auth.bearer(key.key);
});

async function waitFor(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("admin queue view", () => {
  it("is for admins only: builder 403, an admin's API key 403, anonymous 401", async () => {
    expect((await call(adminQueue.GET as never, { headers: builderHeaders })).status).toBe(403);
    expect((await call(adminQueue.GET as never, { headers: adminKeyHeaders })).status).toBe(403);
    expect((await call(adminQueue.GET as never)).status).toBe(401);
    expect(
      (await call(adminQueue.GET as never, { headers: auth.basic("admin@queue.test", "admin-pass-123") })).status,
    ).toBe(200);
  });

  it("in embedded mode shows the in-process queues' counts and no workers", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const queue = getQueue<number>({
      name: "view-test",
      concurrency: 1,
      attempts: 1,
      handler: async (n) => {
        if (n === 1) await gate;
        if (n === 3) throw new Error("no");
      },
    });
    await queue.add([1, 2, 3]);
    const res = await call(adminQueue.GET as never, { headers: adminHeaders });
    expect(res.status).toBe(200);
    expect(res.json.mode).toBe("embedded");
    expect(res.json.workers).toEqual([]);
    expect(res.json.queues.find((q: { name: string }) => q.name === "view-test")).toEqual({
      name: "view-test",
      waiting: 2,
      active: 1,
      delayed: 0,
      failed: 0,
      completed: 0,
    });
    release();
    await queue.drained();
    const after = await call(adminQueue.GET as never, { headers: adminHeaders });
    expect(after.json.queues.find((q: { name: string }) => q.name === "view-test")).toMatchObject({
      waiting: 0,
      active: 0,
      completed: 2,
      failed: 1,
    });
  });
});

// Runs in `npm test`'s PostgreSQL step (TEST_PG_URL, scripts/test-all.sh): queue mode needs
// PostgreSQL (PGlite belongs to one process). Skipped in the PGlite runs, which have no server.
describe.runIf(serverUrl)("admin queue view in queue mode", () => {
  let port: number;
  let server: ChildProcess;
  let url: string;
  let other: Redis;
  const opened: Queue[] = [];

  beforeAll(async () => {
    port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    server = await startRedisServer(port);
    process.env.MODE = "queue";
    process.env.REDIS_URL = url;
    resetEnvForTests();
    forgetProcessState("redis");
    other = createRedisConnection(url, "command", () => {});
    await waitFor(() => other.status === "ready" && redisConnections(url).command.status === "ready");
  });

  afterAll(async () => {
    for (const q of opened) await q.close();
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

  it("counts BullMQ's jobs per queue, lists a running job and the workers", async () => {
    const predictions = new Queue(QUEUE_NAMES.predictions, {
      connection: { host: "127.0.0.1", port },
      prefix: QUEUE_PREFIX,
    });
    opened.push(predictions);
    await predictions.add("predict", { chatflowId: "cf-1", requestId: "req-9" });
    await predictions.add("predict", { chatflowId: "cf-2" });
    await predictions.add("later", { chatflowId: "cf-3" }, { delay: 60_000 });
    // Take one job as a worker would (without running a Worker): it becomes active.
    const token = "test-token";
    expect(await predictions.getJobs(["waiting"])).toHaveLength(2);
    const { Worker } = await import("bullmq");
    const worker = new Worker(QUEUE_NAMES.predictions, null, {
      connection: { host: "127.0.0.1", port, maxRetriesPerRequest: null },
      prefix: QUEUE_PREFIX,
      autorun: false,
    });
    const job = await worker.getNextJob(token);
    expect(job).toBeTruthy();
    const stop = startWorkerHeartbeat(other, {
      workerId: "w-view",
      host: "h1",
      pid: 7,
      concurrency: 2,
      queues: [QUEUE_NAMES.predictions],
      startedAt: new Date().toISOString(),
      activeJobs: () => 1,
    });
    await waitFor(
      async () => (await call(adminQueue.GET as never, { headers: adminHeaders })).json.workers?.length === 1,
    );

    const res = await call(adminQueue.GET as never, { headers: adminHeaders });
    expect(res.status).toBe(200);
    expect(res.json.mode).toBe("queue");
    expect(res.json.queues.map((q: { name: string }) => q.name).sort()).toEqual(Object.values(QUEUE_NAMES).sort());
    expect(res.json.queues.find((q: { name: string }) => q.name === QUEUE_NAMES.predictions)).toEqual({
      name: QUEUE_NAMES.predictions,
      waiting: 1,
      active: 1,
      delayed: 1,
      failed: 0,
      completed: 0,
    });
    expect(res.json.active).toEqual([
      {
        id: job!.id,
        queue: QUEUE_NAMES.predictions,
        name: "predict",
        chatflowId: "cf-1", // the first job added is the first taken
        requestId: "req-9",
        attempt: 1,
        startedAt: expect.any(String),
      },
    ]);
    expect(res.json.workers).toMatchObject([{ workerId: "w-view", host: "h1", activeJobs: 1, concurrency: 2 }]);

    await job!.moveToCompleted("ok", token, false);
    const after = await call(adminQueue.GET as never, { headers: adminHeaders });
    expect(after.json.queues.find((q: { name: string }) => q.name === QUEUE_NAMES.predictions)).toMatchObject({
      active: 0,
      completed: 1,
    });
    expect(after.json.active).toEqual([]);
    await stop();
    await worker.close();

    // Builders are still refused in queue mode.
    expect((await call(adminQueue.GET as never, { headers: builderHeaders })).status).toBe(403);
  });
});

describe("the studio's Queue page", () => {
  const render = (data: unknown) => {
    const client = new QueryClient();
    client.setQueryData(["admin-queue"], data);
    return renderToString(createElement(QueryClientProvider, { client }, createElement(QueueView)));
  };

  it("shows each queue's counts, the running jobs and the workers in queue mode", () => {
    const html = render({
      mode: "queue",
      queues: [{ name: "predictions", waiting: 7, active: 1, delayed: 0, failed: 3, completed: 42 }],
      active: [
        {
          id: "17",
          queue: "predictions",
          name: "predict",
          chatflowId: "cf-abc",
          requestId: "req-xyz",
          attempt: 2,
          startedAt: new Date().toISOString(),
        },
      ],
      workers: [
        {
          workerId: "w1",
          host: "box-7",
          pid: 99,
          concurrency: 4,
          queues: ["predictions"],
          startedAt: new Date().toISOString(),
          activeJobs: 1,
          seenAt: new Date().toISOString(),
        },
      ],
    });
    for (const text of ["predictions", ">7<", ">42<", "#<!-- -->17", "cf-abc", "req-xyz", "attempt <!-- -->2", "box-7"])
      expect(html).toContain(text);
  });

  it("says when no worker runs, and shows no worker list in embedded mode", () => {
    expect(render({ mode: "queue", queues: [], active: [], workers: [] })).toContain("No worker is running");
    const embedded = render({ mode: "embedded", queues: [], active: [], workers: [] });
    expect(embedded).toContain("Embedded mode");
    expect(embedded).not.toContain("Workers (");
  });
});
