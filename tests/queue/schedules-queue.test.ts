import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleFlow } from "../../dev/flows";
import { systemCaller } from "../../dev/callers";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { producer } from "../../lib/queue/client";
import { QUEUE_NAMES } from "../../lib/queue/names";
import { createChatflow } from "../../lib/services/chatflows";
import { publishVersion } from "../../lib/services/chatflow-versions";
import { createSchedule, updateSchedule } from "../../lib/services/schedules";
import { killWorkers, spawnWorker, waitFor } from "./support";

// Queue mode: a schedule is a BullMQ job scheduler in Redis. This process is one API process (it
// creates the schedule, arming it); a second API process's start-up (bootstrap) arms every enabled
// schedule again; two workers take the ticks. Each tick must still be one run: the runs' tick times
// (from the scheduler's job ids) are all different. Ticks come every second; the test waits on the
// run records, not on time.

const root = path.resolve(import.meta.dirname, "../..");
let model: ModelStub;
let flowId: string;

/** Another API process starting: the server's start-up (migrations, then the schedules armed), then exit. */
function startSecondApiProcess(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        "import('./lib/services/bootstrap.ts').then((m) => m.bootstrap()).then(() => process.exit(0))",
      ],
      { cwd: root, env: process.env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

beforeAll(async () => {
  model = await createModelStub({ brain: () => ({ content: "scheduled answer" }) });
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: model.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  flowId = (
    await createChatflow({ name: "ticker", graph: exampleFlow("conversation.json").graph as never }, systemCaller)
  ).id;
  await publishVersion(flowId, 1, systemCaller);
});
afterAll(async () => {
  await killWorkers();
  await model.close();
});

describe("schedules in queue mode", () => {
  it("two API processes arm the same schedule, two workers listen: one run per tick", async () => {
    const schedule = await createSchedule(
      { chatflowId: flowId, cron: "* * * * * *", timezone: "UTC", input: { question: "tick" } },
      systemCaller,
    );
    // A scheduler keeps one next job: ticks do not pile up while the workers start.
    await Promise.all([spawnWorker(), spawnWorker()]);
    const second = await startSecondApiProcess();
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain("armed 1 schedule(s)");
    // Still one scheduler for the schedule in Redis, whoever upserted it.
    expect((await producer(QUEUE_NAMES.schedules).getJobSchedulers()).map((s) => s.key)).toEqual([schedule.id]);

    const runs = () => getDb().then((db) => db.triggerRun.findMany({ where: { scheduleId: schedule.id } }));
    await waitFor(async () => (await runs()).filter((r) => r.status === "succeeded").length >= 3, 90_000);
    await updateSchedule(schedule.id, { enabled: false }, systemCaller);
    expect(await producer(QUEUE_NAMES.schedules).getJobSchedulers()).toEqual([]);
    await waitFor(async () => (await runs()).every((r) => r.status !== "running"), 15_000);

    const done = await runs();
    const ticks = done.map((r) => r.tickAt?.getTime());
    expect(ticks.every((t) => typeof t === "number" && t % 1000 === 0)).toBe(true);
    expect(new Set(ticks).size).toBe(done.length);
    expect(done.every((r) => r.status === "succeeded")).toBe(true);
    const row = await (await getDb()).flowSchedule.findUniqueOrThrow({ where: { id: schedule.id } });
    expect(row.lastStatus).toBe("succeeded");
    expect(done.map((r) => r.id)).toContain(row.lastRunId);
  }, 180_000);
});
