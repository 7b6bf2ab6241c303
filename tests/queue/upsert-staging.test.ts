import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { systemCaller } from "../../dev/callers";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow } from "../../lib/services/chatflows";
import { setupFirstAdmin } from "../../lib/services/users";
import { multiStoreGraph, REFUNDS_MD } from "../support/docs-flows";
import { auth } from "../support/http";
import { killWorkers, spawnWorker, waitFor } from "./support";

// Files staged under DATA_DIR/staging for an upsert job do not outlive it: removed when the wait
// times out (504), when the client goes away, and, left by a process that died, swept at worker start.

let stub: ModelStub;
let session: Record<string, string>;
let docsFlowId: string;

beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "admin@example.com", name: "Admin", password: "admin-pass-1" });
  session = await auth.session(admin.id);
  docsFlowId = (
    await createChatflow({ name: "docs", graph: multiStoreGraph({ chatUrl: stub.url }) as never }, systemCaller)
  ).id;
});
afterAll(async () => {
  delete process.env.JOB_TIMEOUT_MS;
  resetEnvForTests();
  await stub.close();
});

const stagingRoot = () => path.join(process.env.DATA_DIR!, "staging");
const staged = () => (fs.existsSync(stagingRoot()) ? fs.readdirSync(stagingRoot()) : []);

function upsertRequest(signal?: AbortSignal) {
  const form = new FormData();
  form.append("files", new Blob([REFUNDS_MD]), "refunds.md");
  form.append("stopNodeId", "keywordStore");
  const req = new Request(`http://127.0.0.1:3000/api/v1/vector/upsert/${docsFlowId}`, {
    method: "POST",
    headers: session,
    body: form,
    ...(signal ? { signal } : {}),
  });
  return upsert.POST(req, { params: Promise.resolve({ id: docsFlowId }) });
}

function setJobTimeout(ms: number) {
  process.env.JOB_TIMEOUT_MS = String(ms);
  resetEnvForTests();
}

describe("staged upload files (no worker running)", () => {
  it("are removed when nobody finished the job in time (504 job_timeout)", async () => {
    await killWorkers();
    setJobTimeout(1_000);
    const res = await upsertRequest();
    expect(res.status).toBe(504);
    expect((await res.json()).error.code).toBe("job_timeout");
    expect(staged()).toEqual([]);
  });

  it("are removed when the client goes away, without waiting for the job's deadline", async () => {
    await killWorkers();
    setJobTimeout(120_000);
    const client = new AbortController();
    const pending = upsertRequest(client.signal);
    await waitFor(() => staged().length === 1);
    client.abort();
    // Nobody reads it; still a 4xx, not an internal error.
    expect((await pending).status).toBe(400);
    // Well before the 120 s deadline: the wait ended with the client.
    await waitFor(
      () => staged().length === 0,
      10_000,
      () => `still staged: ${staged().join(", ")}`,
    );
  });
});

describe("stale staging dirs", () => {
  it("older than JOB_TIMEOUT_MS × 2 are swept when a worker starts; recent ones stay", async () => {
    await killWorkers();
    setJobTimeout(60_000);
    const old = path.join(stagingRoot(), "left-by-a-dead-api");
    const recent = path.join(stagingRoot(), "still-waited-for");
    for (const dir of [old, recent]) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "0"), "bytes");
    }
    const longAgo = new Date(Date.now() - 3 * 60_000);
    fs.utimesSync(old, longAgo, longAgo);
    const worker = await spawnWorker();
    expect(fs.existsSync(old), worker.output()).toBe(false);
    expect(fs.existsSync(path.join(recent, "0"))).toBe(true);
    expect(worker.output()).toMatch(/removed 1 stale upload staging dir/);
    fs.rmSync(recent, { recursive: true, force: true });
  });
});
