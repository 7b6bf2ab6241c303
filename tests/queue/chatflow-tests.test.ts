import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as cases from "../../app/api/v1/chatflows/[id]/tests/route";
import * as run from "../../app/api/v1/chatflows/[id]/tests/run/route";
import * as runById from "../../app/api/v1/chatflows/[id]/tests/runs/[runId]/route";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow } from "../../lib/services/chatflows";
import { readExampleFlows } from "../../lib/services/examples";
import { setupFirstAdmin } from "../../lib/services/users";
import { userCaller } from "../../dev/callers";
import { auth, call } from "../support/http";
import { killWorkers, spawnWorker, waitFor } from "./support";

// A chatflow test run in queue mode: the API process queues it on BullMQ (queue
// "chatflow-test-runs"); only the spawned worker process runs jobs, so finished results prove it
// ran there, through the prediction path, without storing a conversation.

let stub: ModelStub;
let productApi: ProductApi;
let session: Record<string, string>;
let flowId: string;

beforeAll(async () => {
  [stub, productApi] = await Promise.all([createModelStub(), createProductApi()]);
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "admin@example.com", name: "Admin", password: "admin-pass-1" });
  session = await auth.session(admin.id);
  const agent = exampleFlow("product-search-agent.json", { productApiUrl: productApi.url });
  flowId = (await createChatflow({ name: "agent", graph: agent.graph as never }, userCaller(admin))).id;
  await spawnWorker();
});
afterAll(async () => {
  await killWorkers();
  await Promise.all([stub.close(), productApi.close()]);
});

describe("chatflow test runs through a worker", () => {
  it("runs the cases on the worker and stores the results per version, no conversation written", async () => {
    const shipped = readExampleFlows().find((e) => e.file === "product-search-agent.json")!.tests;
    for (const t of shipped) {
      const added = await call(cases.POST, { method: "POST", params: { id: flowId }, headers: session, body: t });
      expect(added.status).toBe(201);
    }
    const started = await call(run.POST, { method: "POST", params: { id: flowId }, headers: session, body: {} });
    expect(started.status, started.text).toBe(202);
    const progress = () => call(runById.GET, { params: { id: flowId, runId: started.json.runId }, headers: session });
    await waitFor(async () => (await progress()).json.status === "finished", 45_000);
    const result = (await progress()).json;
    expect(result).toMatchObject({ version: 1, total: shipped.length, passed: shipped.length, failed: 0 });
    expect(productApi.requests.some((r) => r.query.countryCode === "DE" && r.query.q === "laptop")).toBe(true);
    expect(await (await getDb()).chatMessage.count({ where: { chatflowId: flowId } })).toBe(0);
  });
});
