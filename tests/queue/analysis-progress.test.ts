import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as analyze from "../../app/api/v1/domains/analyze/route";
import * as domains from "../../app/api/v1/domains/route";
import * as runById from "../../app/api/v1/domains/runs/[id]/route";
import { systemCaller } from "../../dev/callers";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow } from "../../lib/services/chatflows";
import { readExampleFlows } from "../../lib/services/examples";
import { setupFirstAdmin } from "../../lib/services/users";
import { auth, call } from "../support/http";
import { killWorkers, spawnWorker, waitFor } from "./support";

// Domain-analysis runs on workers: progress read through GET /api/v1/domains/runs/{id} while the
// model answers one domain at a time, and a job whose workers die twice (stalled twice) still
// runs its failure handler, so neither the domain nor the run stays "running".

let model: ModelStub;
let session: Record<string, string>;
let analystFlowId: string;

beforeAll(async () => {
  model = await createModelStub({ brain: () => ({ content: "{}" }) });
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: model.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "admin@example.com", name: "Admin", password: "admin-pass-1" });
  session = await auth.session(admin.id);
  const analyst = readExampleFlows().find((f) => f.file === "domain-analyst.json")!;
  analystFlowId = (await createChatflow({ name: analyst.name, graph: analyst.graph as never }, systemCaller)).id;
});
afterAll(() => model.close());

async function startRun(names: string[]) {
  await call(domains.POST, { method: "POST", headers: session, body: { names } });
  const rows = await (await getDb()).domain.findMany({ where: { name: { in: names } } });
  const started = await call(analyze.POST, {
    method: "POST",
    headers: session,
    body: { chatflowId: analystFlowId, ids: rows.map((d) => d.id) },
  });
  expect(started.status, JSON.stringify(started.json)).toBe(202);
  return started.json.run.id as string;
}

const progressOf = async (runId: string) => {
  const res = await call(runById.GET, { params: { id: runId }, headers: session });
  expect(res.status).toBe(200);
  return res.json as { status: string; total: number; succeeded: number; failed: number; finishedAt: string | null };
};

function gates(n: number) {
  const releases: (() => void)[] = [];
  const promises = Array.from({ length: n }, () => new Promise<void>((r) => releases.push(r)));
  return { promises, release: (i: number) => releases[i]() };
}

describe("progress of a run, one domain at a time", () => {
  it("counts rise from 0 to total and the status goes queued → running → finished", async () => {
    await killWorkers();
    const g = gates(3);
    const first = model.requests.length;
    // Each domain's model call waits for its gate: progress is read step by step, with no timing.
    let calls = 0;
    model.setBrain(async () => {
      const i = calls++;
      await g.promises[i];
      return { content: `{"summary":"call ${i}"}` };
    });
    const runId = await startRun(["one.example.com", "two.example.com", "three.example.com"]);
    // No worker yet: queued, nothing counted.
    expect(await progressOf(runId)).toMatchObject({ status: "queued", total: 3, succeeded: 0, failed: 0 });

    await spawnWorker({ WORKER_CONCURRENCY: "1" });
    await waitFor(() => model.requests.length === first + 1, 20_000);
    // The first domain is with the model: the run is running, nothing counted yet.
    await waitFor(async () => (await progressOf(runId)).status === "running");
    expect(await progressOf(runId)).toMatchObject({ succeeded: 0, failed: 0, finishedAt: null });

    for (let done = 1; done <= 3; done++) {
      g.release(done - 1);
      await waitFor(async () => (await progressOf(runId)).succeeded === done, 20_000);
      const p = await progressOf(runId);
      expect(p).toMatchObject({ total: 3, succeeded: done, failed: 0 });
      if (done < 3) {
        expect(p).toMatchObject({ status: "running", finishedAt: null });
        // One at a time (concurrency 1): the next domain reaches the model only after this one is counted.
        await waitFor(() => model.requests.length === first + done + 1, 20_000);
      }
    }
    const end = await progressOf(runId);
    expect(end).toMatchObject({ status: "finished", total: 3, succeeded: 3, failed: 0 });
    expect(end.finishedAt).not.toBeNull();
    const rows = await (await getDb()).domain.findMany({ where: { analysisRunId: runId } });
    expect(rows.map((r) => r.analysisStatus)).toEqual(["succeeded", "succeeded", "succeeded"]);
    await killWorkers();
  });
});

describe("a domain-analysis job whose worker dies twice", () => {
  it("is failed with its failure handler: the domain is failed and the run counts it", async () => {
    await killWorkers();
    model.setBrain(() => ({ content: "never", delivery: { hang: true } }));
    const runId = await startRun(["stalls.example.com"]);
    const before = model.requests.length;

    const a = await spawnWorker();
    await waitFor(() => model.requests.length === before + 1, 20_000);
    a.child.kill("SIGKILL");
    await a.exited;

    // The job's lock expires; the next worker's stalled check hands it back once (maxStalledCount 1).
    const b = await spawnWorker();
    await waitFor(() => model.requests.length === before + 2, 20_000, b.output);
    b.child.kill("SIGKILL");
    await b.exited;

    // Stalled a second time: the next worker fails it without running it.
    const c = await spawnWorker();
    const domain = () => getDb().then((db) => db.domain.findUniqueOrThrow({ where: { name: "stalls.example.com" } }));
    await waitFor(async () => (await domain()).analysisStatus === "failed", 30_000, c.output);
    expect((await domain()).analysisError).toMatch(/worker stopped more often than retries allow/);
    // The handler marks the domain, then counts it on the run.
    await waitFor(async () => (await progressOf(runId)).status === "finished", 10_000);
    expect(await progressOf(runId)).toMatchObject({ status: "finished", total: 1, succeeded: 0, failed: 1 });
    // Not run a third time.
    expect(model.requests.length).toBe(before + 2);
  });
});
