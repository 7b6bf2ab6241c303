import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { createModelStub, type ModelStub } from "../dev/model-stub/server";
import { hasBuild, type RunningProcess, startApiProcess, startWorkerProcess } from "../dev/processes";
import { createProductApi, type ProductApi } from "../dev/product-api/server";
import { freePort, startRedisServer, stopRedisServer } from "../dev/redis-server";

// Queue mode (issue 12) end to end: 2 API processes (`npm start`, MODE=queue) and 2 workers
// (`npm run worker`) on a throwaway PostgreSQL database and a private redis-server, with the model
// stub and the demo product API on free ports. No browser: plain HTTP to the processes. The suite's
// own app (playwright.config.ts) is not used.

const PG_ADMIN_URL =
  process.env.E2E_PG_URL ?? process.env.TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const ADMIN = { email: "admin@queue-e2e.test", password: "queue-e2e-admin-pass" };
const basic = { authorization: `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString("base64")}` };

/** A worker is ready when it says so (`worker ready`, plain or in a JSON log line). */
const workerReady = (line: string) => line.includes("worker ready");

test.describe.configure({ mode: "serial", timeout: 240_000 });

test.describe("queue mode: 2 API processes, 2 workers, PostgreSQL and Redis", () => {
  // `npm test` builds before the browser tests, so this only skips a direct run without a build.
  test.skip(!hasBuild(), "no build (.next/BUILD_ID): the API processes serve the production build");

  const dbName = `switchyard_queue_e2e_${process.pid}_${randomBytes(3).toString("hex")}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-queue-e2e-"));
  let redis: Awaited<ReturnType<typeof startRedisServer>> | undefined;
  let stub: ModelStub | undefined;
  let productApi: ProductApi | undefined;
  let databaseCreated = false;
  const processes: RunningProcess[] = [];
  let apiA: { url: string };
  let apiB: { url: string };
  const flows: Record<string, string> = {};
  let upsertKey = "";

  const adminQuery = async (sql: string) => {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    await adminQuery(`CREATE DATABASE "${dbName}"`);
    databaseCreated = true;
    const redisPort = await freePort();
    redis = await startRedisServer(redisPort);
    stub = await createModelStub({ host: "127.0.0.1" });
    productApi = await createProductApi({ host: "127.0.0.1" });
    const databaseUrl = new URL(PG_ADMIN_URL);
    databaseUrl.pathname = `/${dbName}`;
    const env = {
      MODE: "queue",
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      DATABASE_URL: databaseUrl.toString(),
      // One data directory and explicit secrets: every process must read the same keys and files.
      DATA_DIR: dataDir,
      NEXTAUTH_SECRET: randomBytes(24).toString("hex"),
      SECRETS_KEY: randomBytes(32).toString("hex"),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_NAME: "Queue Admin",
      LOAD_EXAMPLE_FLOWS: "true",
      OPENAI_API_KEY: "stub-key",
      OPENAI_BASE_URL: stub.url,
      OPENAI_MODEL: "stub-model",
      OUTBOUND_ALLOW_HOSTS: `${new URL(productApi.url).host},127.0.0.1:${stub.port}`,
      WORKER_CONCURRENCY: "2",
      SHUTDOWN_GRACE_MS: "5000",
      LOG_LEVEL: "info",
    };
    // API A first: it migrates and loads the example flows; the others then start together.
    const a = await startApiProcess(env);
    processes.push(a);
    const [b, ...workers] = await Promise.all([
      startApiProcess(env),
      startWorkerProcess(env, { ready: workerReady }),
      startWorkerProcess(env, { ready: workerReady }),
    ]);
    processes.push(b, ...workers);
    apiA = a;
    apiB = b;
    const listed = (await (await fetch(`${a.url}/api/v1/chatflows`, { headers: basic })).json()) as {
      id: string;
      name: string;
    }[];
    for (const f of listed) flows[f.name] = f.id;
    // Upserts take an API key with `upsert` (Basic is not allowed there).
    const key = await fetch(`${a.url}/api/v1/apikey`, {
      method: "POST",
      headers: { "content-type": "application/json", ...basic },
      body: JSON.stringify({ name: "queue e2e", permissions: ["upsert", "predict"] }),
    });
    expect(key.status, await key.clone().text()).toBeLessThan(300);
    upsertKey = (await key.json()).key;
    expect(Object.keys(flows)).toEqual(
      expect.arrayContaining(["Conversation", "Domain Analyst", "Docs QA (keyword search, no embeddings)"]),
    );
  });

  test.afterAll(async () => {
    await Promise.all(
      processes.map(async (p) => {
        const stopped = await Promise.race([
          p.stop("SIGTERM"),
          new Promise<null>((r) => setTimeout(() => r(null), 15_000)),
        ]);
        if (!stopped) await p.kill();
      }),
    );
    await Promise.all([stub?.close(), productApi?.close(), redis && stopRedisServer(redis)]);
    if (databaseCreated) await adminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const predict = (api: { url: string }, flowId: string, body: object) =>
    fetch(`${api.url}/api/v1/prediction/${flowId}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...basic },
      body: JSON.stringify(body),
    });

  test("a JSON prediction runs on a worker and answers through the API", async () => {
    const res = await predict(apiA, flows.Conversation, { question: "Hello there" });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(typeof body.text).toBe("string");
    expect(body.text.length).toBeGreaterThan(0);
    expect(body.chatId).toBeTruthy();
  });

  test("an SSE prediction streams its tokens from the worker", async () => {
    const res = await predict(apiB, flows.Conversation, { question: "Hi, please tell me something", streaming: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text();
    // Flowise's shape: every message is `data: {"event": …, "data": …}`.
    const messages = text
      .split("\n\n")
      .map((block) => /^data: ?(.*)$/m.exec(block)?.[1])
      .filter((d): d is string => Boolean(d))
      .map((d) => JSON.parse(d) as { event: string; data: unknown });
    const events = messages.map((m) => m.event);
    expect(events.filter((e) => e === "token").length).toBeGreaterThan(1);
    expect(events.at(-1)).toBe("end");
    expect(events).not.toContain("error");
    const tokens = messages.filter((m) => m.event === "token").map((m) => m.data);
    expect(tokens.join("").length).toBeGreaterThan(0);
  });

  test("memory carries across API processes: turn 1 on API A, turn 2 on API B", async () => {
    const sessionId = `queue-e2e-${Date.now().toString(36)}`;
    const first = await predict(apiA, flows.Conversation, {
      question: "Hi, my name is Ada.",
      overrideConfig: { sessionId },
    });
    expect(first.status).toBe(200);
    const second = await predict(apiB, flows.Conversation, {
      question: "What is my name?",
      overrideConfig: { sessionId },
    });
    expect(second.status).toBe(200);
    expect((await second.json()).text).toContain("Ada");
    const messages = await (
      await fetch(`${apiA.url}/api/v1/chatmessage/${flows.Conversation}?sessionId=${sessionId}`, { headers: basic })
    ).json();
    expect(messages).toHaveLength(4); // each exchange stored once, whichever worker ran it
  });

  test("a vector upsert runs on a worker and stores the chunks", async () => {
    const flowId = flows["Docs QA (keyword search, no embeddings)"];
    const form = new FormData();
    form.append(
      "files",
      new Blob(["Refunds are accepted within 30 days of delivery.\n\nShipping to Germany takes 3 days."], {
        type: "text/plain",
      }),
      "policy.txt",
    );
    const res = await fetch(`${apiB.url}/api/v1/vector/upsert/${flowId}`, {
      method: "POST",
      headers: { authorization: `Bearer ${upsertKey}` },
      body: form,
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.numAdded).toBeGreaterThan(0);
    // Another API process answers from what the worker stored.
    const answer = await predict(apiA, flowId, {
      question: "Within how many days are refunds accepted after delivery?",
    });
    expect(answer.status).toBe(200);
    expect((await answer.json()).text).toMatch(/30 days/);
  });

  test("a domain analysis runs to completion on the workers", async () => {
    const tag = Date.now().toString(36);
    const names = [`alpha-${tag}.example.com`, `beta-${tag}.example.org`];
    const added = await fetch(`${apiA.url}/api/v1/domains`, {
      method: "POST",
      headers: { "content-type": "application/json", ...basic },
      body: JSON.stringify({ names }),
    });
    expect(added.status, await added.clone().text()).toBeLessThan(300);
    const listed = await (await fetch(`${apiB.url}/api/v1/domains?searchTerm=${tag}`, { headers: basic })).json();
    const ids = (listed.data as { id: string }[]).map((d) => d.id);
    expect(ids).toHaveLength(2);
    const started = await fetch(`${apiB.url}/api/v1/domains/analyze`, {
      method: "POST",
      headers: { "content-type": "application/json", ...basic },
      body: JSON.stringify({ chatflowId: flows["Domain Analyst"], ids }),
    });
    const startedBody = await started.json();
    expect(started.status, JSON.stringify(startedBody)).toBe(202);
    const runId = startedBody.run.id;
    await expect
      .poll(
        async () => (await (await fetch(`${apiA.url}/api/v1/domains/runs/${runId}`, { headers: basic })).json()).status,
        { timeout: 120_000, intervals: [250, 500, 1000] },
      )
      .toBe("finished");
    const run = await (await fetch(`${apiA.url}/api/v1/domains/runs/${runId}`, { headers: basic })).json();
    expect(run).toMatchObject({ total: 2, succeeded: 2, failed: 0 });
  });

  test("SIGTERM: both API processes and both workers finish and exit 0", async () => {
    for (const p of processes) expect(await p.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  });
});
