// Issue 33: schedules (embedded mode). A cron expression in an IANA time zone runs a flow's published
// version with a fixed input on an in-process timer; each run is a TriggerRun row and the schedule
// keeps its last result. Ticks are driven by an every-second cron and awaited on the run records.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import { waitFor } from "../queue/support";
import { startServerModelStub } from "../support/server-model-stub";
import { exampleFlow } from "../../dev/flows";
import { textOf } from "../../dev/model-stub/brain";
import type { ModelStub } from "../../dev/model-stub/server";
import * as schedules from "../../app/api/v1/schedules/route";
import * as scheduleById from "../../app/api/v1/schedules/[id]/route";
import { createChatflow } from "../../lib/services/chatflows";
import { publishVersion } from "../../lib/services/chatflow-versions";
import { createApiKey } from "../../lib/services/api-keys";
import { createUser, setupFirstAdmin } from "../../lib/services/users";
import { getDb } from "../../lib/db/client";
import { userCaller } from "../../dev/callers";

let stub: ModelStub;
let key: string;
let builderKey: string;
let flowId: string;
let draftFlowId: string;

const create = (body: object, k = key) => call(schedules.POST, { method: "POST", headers: auth.bearer(k), body });
const read = (id: string, k = key) => call(scheduleById.GET, { params: { id }, headers: auth.bearer(k) });
const change = (id: string, body: object) =>
  call(scheduleById.PUT, { method: "PUT", params: { id }, headers: auth.bearer(key), body });
const runsOf = async (scheduleId: string) =>
  (await getDb()).triggerRun.findMany({ where: { scheduleId }, orderBy: { createdAt: "asc" } });

beforeAll(async () => {
  stub = await startServerModelStub(
    {},
    {
      brain: (req) => ({
        content: `echo: ${textOf(req.messages.filter((m) => m.role === "user").at(-1)?.content ?? "")}`,
      }),
    },
  );
  const owner = userCaller(
    await setupFirstAdmin({ email: "cron@example.invalid", name: "Cron", password: "a long password 1" }),
  );
  key = (await createApiKey({ name: "cron", permissions: ["chatflows"], chatflowIds: [] }, owner)).key;
  const builder = await createUser({
    email: "b@example.invalid",
    name: "B",
    password: "a long password 1",
    role: "builder",
  });
  builderKey = (
    await createApiKey(
      { name: "b", permissions: ["chatflows"], chatflowIds: [] },
      userCaller({ ...builder, role: "builder" }),
    )
  ).key;
  const graph = exampleFlow("conversation.json").graph as never;
  flowId = (await createChatflow({ name: "Daily digest", graph }, owner)).id;
  await publishVersion(flowId, 1, owner);
  draftFlowId = (await createChatflow({ name: "Unpublished", graph }, owner)).id;
});
afterAll(() => stub.close());

describe("schedules: what they accept", () => {
  it("refuses a cron that does not parse, naming it, and stores nothing", async () => {
    const before = await (await getDb()).flowSchedule.count();
    const res = await create({ chatflowId: flowId, cron: "every day at nine", input: { question: "hi" } });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/^cron: "every day at nine" is not a cron expression/);
    const out = await create({ chatflowId: flowId, cron: "61 * * * *", input: { question: "hi" } });
    expect(out.status).toBe(400);
    expect(out.json.error.message).toMatch(/^cron: "61 \* \* \* \*"/);
    expect(await (await getDb()).flowSchedule.count()).toBe(before);
  });

  it("refuses an unknown time zone, naming it", async () => {
    const res = await create({
      chatflowId: flowId,
      cron: "0 9 * * *",
      timezone: "Mars/Olympus",
      input: { question: "hi" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/^timezone: "Mars\/Olympus" is not an IANA time zone/);
  });

  it("refuses an input the flow cannot take, and a flow the caller does not manage", async () => {
    const noQuestion = await create({ chatflowId: flowId, cron: "0 9 * * *", input: { form: { a: 1 } } });
    expect(noQuestion.status).toBe(400);
    expect(noQuestion.json.error.message).toMatch(/^input\.question:/);
    const others = await create({ chatflowId: flowId, cron: "0 9 * * *", input: { question: "hi" } }, builderKey);
    expect(others.status).toBe(404);
  });

  it("answers the next run in the schedule's time zone: weekdays at 09:00 in Paris", async () => {
    const res = await create({
      chatflowId: flowId,
      name: "Morning",
      cron: "0 9 * * MON-FRI",
      timezone: "Europe/Paris",
      input: { question: "morning report" },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: "Morning", enabled: true, lastRun: null, timezone: "Europe/Paris" });
    const next = new Date(res.json.nextRunAt);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    const paris = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Paris",
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
    }).format(next);
    expect(paris).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 09:00$/);
    // Turned off: no next run; the builder does not see it at all.
    const off = await change(res.json.id, { enabled: false });
    expect(off.json).toMatchObject({ enabled: false, nextRunAt: null });
    expect((await read(res.json.id, builderKey)).status).toBe(404);
    const listed = await call(schedules.GET, {
      path: `/api/v1/schedules?chatflowId=${flowId}`,
      headers: auth.bearer(key),
    });
    expect(listed.json.map((s: { id: string }) => s.id)).toContain(res.json.id);
    const buildersList = await call(schedules.GET, { path: "/api/v1/schedules", headers: auth.bearer(builderKey) });
    expect(buildersList.json).toEqual([]);
  });
});

describe("schedules: ticking", () => {
  it("runs the published flow with its input on each tick and keeps the last result", async () => {
    const res = await create({ chatflowId: flowId, cron: "* * * * * *", input: { question: "tick report" } });
    expect(res.status).toBe(200);
    const id = res.json.id;
    await waitFor(async () => (await runsOf(id)).some((r) => r.status === "succeeded"), 15_000);
    // Stopped before reading, so the record read is the one the last tick left.
    await change(id, { enabled: false });
    const run = (await runsOf(id)).find((r) => r.status === "succeeded")!;
    expect(run).toMatchObject({ source: "schedule", chatflowId: flowId });
    expect((run.answer as { text: string }).text).toBe("echo: tick report");
    await waitFor(async () => (await read(id)).json.lastRun !== null);
    const after = await read(id);
    expect(after.json.lastRun).toMatchObject({ status: "succeeded", error: null });
    expect(after.json.lastRun.chatMessageId).toBeTruthy();
    expect(after.json.runs.length).toBeGreaterThan(0);
    const message = await (await getDb()).chatMessage.findUnique({ where: { id: after.json.lastRun.chatMessageId } });
    expect(message?.content).toBe("echo: tick report");
  });

  it("records a failed tick with its reason (a flow never published runs nothing)", async () => {
    const res = await create({ chatflowId: draftFlowId, cron: "* * * * * *", input: { question: "x" } });
    const id = res.json.id;
    const calls = stub.requests.length;
    await waitFor(async () => (await read(id)).json.lastRun !== null, 15_000);
    await change(id, { enabled: false });
    const after = await read(id);
    expect(after.json.lastRun).toMatchObject({ status: "failed", runId: null });
    expect(after.json.lastRun.error).toMatch(/no published version/);
    expect(stub.requests.length).toBe(calls);
  });

  it("deletes a schedule: 200, then 404; its runs stay", async () => {
    const res = await create({ chatflowId: flowId, cron: "0 0 1 1 *", input: { question: "yearly" } });
    const del = await call(scheduleById.DELETE, {
      method: "DELETE",
      params: { id: res.json.id },
      headers: auth.bearer(key),
    });
    expect(del.json).toEqual({ deleted: true, id: res.json.id });
    expect((await read(res.json.id)).status).toBe(404);
  });
});
