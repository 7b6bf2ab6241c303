import { beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import { userCaller } from "../../dev/callers";
import * as cases from "../../app/api/v1/chatflows/[id]/tests/route";
import * as runById from "../../app/api/v1/chatflows/[id]/tests/runs/[runId]/route";
import * as stores from "../../app/api/v1/vector/stores/[id]/route";
import * as diff from "../../app/api/v1/chatflows/[id]/versions/[n]/diff/route";
import { getDb } from "../../lib/db/client";
import { createChatflow } from "../../lib/services/chatflows";
import { createChatflowTestCase } from "../../lib/services/chatflow-tests/cases";
import { setupFirstAdmin } from "../../lib/services/users";

// JSON columns are read with their schemas: a row whose stored JSON no longer matches (written by
// hand, a bad migration) is a 500 `stored_data_invalid` naming the row, not a crash or a wrong shape.

let session: Record<string, string>;
let chatflowId: string;
let caseId: string;

beforeAll(async () => {
  const admin = await setupFirstAdmin({ email: "admin@stored.test", name: "Admin", password: "admin-pass-1" });
  session = await auth.session(admin.id);
  const caller = userCaller(admin);
  chatflowId = (await createChatflow({ name: "Stored JSON", graph: { nodes: [], edges: [] } }, caller)).id;
  const created = await createChatflowTestCase(
    chatflowId,
    { name: "Status", question: "Hi", expectations: [{ type: "status", value: 200 }] },
    caller,
  );
  caseId = created.id;
});

describe("a corrupt JSON column", () => {
  it("of a test case: the list answers 500 stored_data_invalid naming the case", async () => {
    const ok = await call(cases.GET, { params: { id: chatflowId }, headers: session });
    expect(ok.status).toBe(200);
    expect(ok.json[0].expectations).toEqual([{ type: "status", value: 200 }]);

    const db = await getDb();
    await db.chatflowTestCase.update({
      where: { id: caseId },
      data: { expectations: [{ type: "status", value: "200" }] },
    });
    const res = await call(cases.GET, { params: { id: chatflowId }, headers: session });
    expect(res.status).toBe(500);
    expect(res.json.error.code).toBe("stored_data_invalid");
    expect(res.json.error.message).toContain(`expectations of ChatflowTestCase ${caseId}`);
    await db.chatflowTestCase.update({
      where: { id: caseId },
      data: { expectations: [{ type: "status", value: 200 }] },
    });
  });

  it("of a test run's results: the run answers 500 stored_data_invalid naming the run", async () => {
    const db = await getDb();
    const run = await db.chatflowTestRun.create({
      data: { chatflowId, version: 1, cases: [], total: 1, status: "finished", results: [{ caseId }] },
    });
    const res = await call(runById.GET, { params: { id: chatflowId, runId: run.id }, headers: session });
    expect(res.status).toBe(500);
    expect(res.json.error).toMatchObject({ code: "stored_data_invalid" });
    expect(res.json.error.message).toContain(`results of ChatflowTestRun ${run.id}`);
  });

  it("of a version's graph: the diff answers 500 stored_data_invalid naming the version", async () => {
    const db = await getDb();
    const v1 = await db.chatflowVersion.findFirstOrThrow({ where: { chatflowId, version: 1 } });
    await db.chatflowVersion.create({
      data: { chatflowId, version: 2, graph: { nodes: [], edges: [] }, message: "second" },
    });
    // Versions never change, so they are cached once read: corrupted before the first read.
    await db.chatflowVersion.update({ where: { id: v1.id }, data: { graph: { nodes: [{ id: "a" }], edges: [] } } });
    const res = await call(diff.GET, { params: { id: chatflowId, n: "2" }, headers: session });
    expect(res.status).toBe(500);
    expect(res.json.error).toMatchObject({ code: "stored_data_invalid" });
    expect(res.json.error.message).toContain(`graph of ChatflowVersion ${v1.id}`);
  });

  it("of a chatflow's graph: listing its stores answers 500 stored_data_invalid", async () => {
    const before = await call(stores.GET, { params: { id: chatflowId }, headers: session });
    expect(before.status).toBe(200);
    expect(before.json).toEqual([]);

    await (await getDb()).chatflow.update({ where: { id: chatflowId }, data: { graph: { nodes: "none" } } });
    const res = await call(stores.GET, { params: { id: chatflowId }, headers: session });
    expect(res.status).toBe(500);
    expect(res.json.error).toMatchObject({ code: "stored_data_invalid" });
    expect(res.json.error.message).toContain(`graph of Chatflow ${chatflowId}`);
  });
});
