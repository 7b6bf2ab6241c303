// Issue 33: webhook and schedule runs are leased to the process waiting on them
// (lib/services/trigger-run-leases.ts). A sweep closes, as failed and saying why, the running runs
// whose lease ran out (their process died) and never one whose process is alive; a run that still
// finishes after it was closed records its real outcome. The process dying for real is
// tests/integration/trigger-run-restart.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, demoBrain, type ModelStub } from "../../dev/model-stub/server";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { publishVersion } from "../../lib/services/chatflow-versions";
import { createChatflow } from "../../lib/services/chatflows";
import { ABANDONED_TRIGGER_RUN, closeAbandonedTriggerRuns } from "../../lib/services/trigger-run-leases";
import { publishedFlowForTrigger, startTriggerRun } from "../../lib/services/trigger-runs";

let stub: ModelStub;
let flowId: string;

beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const graph = exampleFlow("conversation.json").graph as never;
  flowId = (await createChatflow({ name: "leased", graph }, systemCaller)).id;
  await publishVersion(flowId, 1, systemCaller);
});
afterAll(() => stub.close());

const rowOf = async (id: string) => (await getDb()).triggerRun.findUniqueOrThrow({ where: { id } });

describe("trigger run leases", () => {
  it("keeps a run whose process is alive, closes it once its lease ran out, and a late finish still records the answer", async () => {
    let entered!: () => void;
    const modelEntered = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    stub.setBrain(async () => {
      entered();
      await gate;
      return { content: "Late but done." };
    });
    try {
      const started = await startTriggerRun({
        chatflow: await publishedFlowForTrigger(flowId, "webhook"),
        body: { question: "Still there?" },
        source: "webhook",
      });
      await modelEntered;
      const held = await rowOf(started.run.id);
      expect(held.leaseUntil!.getTime()).toBeGreaterThan(Date.now());
      await closeAbandonedTriggerRuns();
      expect((await rowOf(started.run.id)).status).toBe("running");

      // As if its process had died: the lease is in the past.
      await (await getDb()).triggerRun.update({
        where: { id: started.run.id },
        data: { leaseUntil: new Date(Date.now() - 1000) },
      });
      expect(await closeAbandonedTriggerRuns()).toBe(1);
      expect(await rowOf(started.run.id)).toMatchObject({
        status: "failed",
        error: ABANDONED_TRIGGER_RUN,
        leaseUntil: null,
      });

      release();
      await started.done;
      expect(await rowOf(started.run.id)).toMatchObject({ status: "succeeded", error: null, leaseUntil: null });
    } finally {
      release();
      stub.setBrain(demoBrain);
    }
  });

  it("closes a run from before leases (none) once it is older than a lease, not a newer one", async () => {
    const db = await getDb();
    const old = await db.triggerRun.create({
      data: { chatflowId: flowId, source: "schedule", createdAt: new Date(Date.now() - 3_600_000) },
    });
    const fresh = await db.triggerRun.create({ data: { chatflowId: flowId, source: "schedule" } });
    await closeAbandonedTriggerRuns();
    expect((await rowOf(old.id)).status).toBe("failed");
    expect((await rowOf(old.id)).error).toMatch(/server running this run stopped/);
    expect((await rowOf(fresh.id)).status).toBe("running");
  });
});
