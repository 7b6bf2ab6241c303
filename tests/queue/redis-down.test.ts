import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as analyze from "../../app/api/v1/domains/analyze/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import * as domains from "../../app/api/v1/domains/route";
import * as runById from "../../app/api/v1/domains/runs/[id]/route";
import { systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { freePort, startRedisServer, stopRedisServer } from "../../dev/redis-server";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow, listChatflowsFor } from "../../lib/services/chatflows";
import { readExampleFlows } from "../../lib/services/examples";
import { setupFirstAdmin } from "../../lib/services/users";
import { auth, call } from "../support/http";
import { type SpawnedWorker, spawnWorker, waitFor } from "./support";

// Redis down when processes start: this (API) process and a worker point at a port where no Redis
// runs yet (the file's own Redis from setup.ts is not used). The API serves what needs no queue and
// answers 503 queue_unavailable for what does, leaving no run "queued" behind; the worker waits,
// logs the outage once, and works once Redis comes up on that port.

let redisPort: number;
let lateRedis: ChildProcess | undefined;
let model: ModelStub;
let session: Record<string, string>;
let analystFlowId: string;

beforeAll(async () => {
  redisPort = await freePort();
  model = await createModelStub({ brain: () => ({ content: '{"summary":"fine"}' }) });
  Object.assign(process.env, {
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: model.url,
    OPENAI_MODEL: "stub-model",
  });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "admin@example.com", name: "Admin", password: "admin-pass-1" });
  session = await auth.session(admin.id);
  const analyst = readExampleFlows().find((f) => f.file === "domain-analyst.json")!;
  analystFlowId = (await createChatflow({ name: analyst.name, graph: analyst.graph as never }, systemCaller)).id;
});
afterAll(async () => {
  await model.close();
  if (lateRedis) await stopRedisServer(lateRedis);
});

const analyse = async (names: string[]) => {
  const added = await call(domains.POST, { method: "POST", headers: session, body: { names } });
  expect(added.status, JSON.stringify(added.json)).toBeLessThan(300);
  const rows = await (await getDb()).domain.findMany({ where: { name: { in: names } } });
  return call(analyze.POST, {
    method: "POST",
    headers: session,
    body: { chatflowId: analystFlowId, ids: rows.map((d) => d.id) },
  });
};

describe("an API process started while Redis is down", () => {
  it("serves routes that need no queue", async () => {
    expect((await listChatflowsFor(systemCaller)).items.map((f) => f.id)).toContain(analystFlowId);
    const list = await call(domains.GET, { headers: session });
    expect(list.status).toBe(200);
  });

  it("answers 503 queue_unavailable for a prediction and an upsert, naming Redis", async () => {
    const flowId = (
      await createChatflow({ name: "conv", graph: exampleFlow("conversation.json").graph as never }, systemCaller)
    ).id;
    const post = (handler: typeof prediction.POST, url: string, body: object) =>
      handler(
        new Request(url, {
          method: "POST",
          headers: { ...session, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve({ id: flowId }) },
      );
    for (const res of [
      await post(prediction.POST, `http://127.0.0.1:3000/api/v1/prediction/${flowId}`, { question: "hi" }),
      await post(upsert.POST, `http://127.0.0.1:3000/api/v1/vector/upsert/${flowId}`, {}),
    ]) {
      expect(res.status).toBe(503);
      expect((await res.json()).error).toMatchObject({
        code: "queue_unavailable",
        message: expect.stringContaining(`127.0.0.1:${redisPort}`),
      });
    }
  });

  it("answers 503 queue_unavailable for a domain analysis, and the run and its domains are failed, not queued", async () => {
    const res = await analyse(["down1.example.com", "down2.example.com"]);
    expect(res.status).toBe(503);
    expect(res.json.error).toMatchObject({ code: "queue_unavailable", message: expect.stringMatching(/unreachable/) });
    const db = await getDb();
    const runs = await db.domainAnalysisRun.findMany();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: "finished", total: 2, succeeded: 0, failed: 2 });
    expect(runs[0].finishedAt).not.toBeNull();
    const progress = await call(runById.GET, { params: { id: runs[0].id }, headers: session });
    expect(progress.json).toMatchObject({ status: "finished", failed: 2 });
    const rows = await db.domain.findMany({ where: { analysisRunId: runs[0].id } });
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.analysisStatus).toBe("failed");
      expect(r.analysisError).toMatch(/the job queue was unreachable/);
    }
  });
});

describe("a worker started while Redis is down", () => {
  let worker: SpawnedWorker;

  it("stays up, says so once, and processes jobs once Redis comes up", async () => {
    // Debug lines show each reconnect round (lib/redis/connection.ts), so the test can wait for them.
    worker = await spawnWorker({ LOG_LEVEL: "debug" });
    await waitFor(() => /Redis .*failed|unreachable/i.test(worker.output()), 20_000, worker.output);
    // Worker lines are JSON (pino).
    const entries = () =>
      worker
        .output()
        .split("\n")
        .map((line) => {
          try {
            return { line, ...(JSON.parse(line) as { level?: string; msg?: string; err?: string; delayMs?: number }) };
          } catch {
            return { line };
          }
        });
    // Several reconnect rounds pass: a connection announcing a 1 s wait has failed five times (200 ms more each).
    await waitFor(() => entries().some((e) => (e.delayMs ?? 0) >= 1_000), 20_000, worker.output);
    expect(worker.child.exitCode, worker.output()).toBeNull();
    // Each connection group says it once (the state bus's own connections log their first failure too),
    // never once per reconnect or per BullMQ worker. Compare messages, not timestamps; the rounds'
    // own debug lines are not outage reports.
    const outageLines = entries()
      .filter((e) => e.level !== "debug" && /redis|ECONNREFUSED/i.test(e.line))
      .map((e) => (e.msg === undefined ? e.line : `${e.msg} ${e.err ?? ""}`));
    expect(new Set(outageLines).size, worker.output()).toBe(outageLines.length);
    expect(
      outageLines.filter((l) => /is unreachable; waiting for it/.test(l)),
      worker.output(),
    ).toHaveLength(1);

    lateRedis = await startRedisServer(redisPort);
    await waitFor(() => /Redis is back|connected to Redis/i.test(worker.output()), 20_000, worker.output);
    // This process's own queue client reconnects on its own backoff, maybe after the worker's: until it
    // has, an analysis is refused 503 and nothing is stored, so asking again is safe.
    let res = await analyse(["late.example.com"]);
    await waitFor(
      async () => {
        if (res.status === 503) res = await analyse(["late.example.com"]);
        return res.status !== 503;
      },
      20_000,
      worker.output,
    );
    expect(res.status, JSON.stringify(res.json)).toBe(202);
    const runId = res.json.run.id;
    await waitFor(
      async () => (await call(runById.GET, { params: { id: runId }, headers: session })).json.status === "finished",
      30_000,
      worker.output,
    );
    const late = await (await getDb()).domain.findUniqueOrThrow({ where: { name: "late.example.com" } });
    expect(late).toMatchObject({ analysisStatus: "succeeded", analysis: { summary: "fine" } });
    expect(worker.child.exitCode).toBeNull();
  });
});
