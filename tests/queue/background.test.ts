import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as analyze from "../../app/api/v1/domains/analyze/route";
import * as domains from "../../app/api/v1/domains/route";
import * as runById from "../../app/api/v1/domains/runs/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { systemCaller } from "../../dev/callers";
import { type Brain, createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow } from "../../lib/services/chatflows";
import { readExampleFlows } from "../../lib/services/examples";
import { setupFirstAdmin } from "../../lib/services/users";
import { FAQ_CSV, multiStoreGraph, REFUNDS_MD } from "../support/docs-flows";
import { auth, call } from "../support/http";
import { spawnWorker, waitFor } from "./support";

// Vector upserts and domain analyses in queue mode: the API process stages and queues, a spawned
// worker process does the work.

let stub: ModelStub;
let session: Record<string, string>;
let docsFlowId: string;
let analystFlowId: string;
const analysed: string[] = [];

const analystBrain: Brain = (req) => {
  const domain = /Domain: ([a-z0-9.-]+)/.exec(JSON.stringify(req.messages))?.[1] ?? "?";
  analysed.push(domain);
  if (domain.startsWith("refused")) return { error: { status: 400, message: "bad request" } };
  return { content: `\`\`\`json\n${JSON.stringify({ summary: `${domain} sells things`, category: "shop" })}\n\`\`\`` };
};

beforeAll(async () => {
  stub = await createModelStub({ brain: analystBrain });
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "admin@example.com", name: "Admin", password: "admin-pass-1" });
  session = await auth.session(admin.id);
  docsFlowId = (
    await createChatflow({ name: "docs", graph: multiStoreGraph({ chatUrl: stub.url }) as never }, systemCaller)
  ).id;
  const analyst = readExampleFlows().find((f) => f.file === "domain-analyst.json")!;
  analystFlowId = (await createChatflow({ name: analyst.name, graph: analyst.graph as never }, systemCaller)).id;
  await spawnWorker();
});
afterAll(() => stub.close());

async function upsertFiles(files: { name: string; content: string }[], fields: Record<string, string>) {
  const form = new FormData();
  for (const f of files) form.append("files", new Blob([f.content]), f.name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const req = new Request(`http://127.0.0.1:3000/api/v1/vector/upsert/${docsFlowId}`, {
    method: "POST",
    headers: session,
    body: form,
  });
  const res = await upsert.POST(req, { params: Promise.resolve({ id: docsFlowId }) });
  return { status: res.status, json: await res.json() };
}

const stagingDir = () => path.join(process.env.DATA_DIR!, "staging");

describe("vector upsert through a worker", () => {
  it("stages the files, the worker loads them into the store and the staging is cleaned", async () => {
    const res = await upsertFiles(
      [
        { name: "refunds.md", content: REFUNDS_MD },
        { name: "faq.csv", content: FAQ_CSV },
      ],
      { stopNodeId: "keywordStore" },
    );
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const rows = await (await getDb()).documentChunk.findMany({ where: { chatflowId: docsFlowId } });
    expect(res.json).toMatchObject({ numAdded: rows.length, numUpdated: 0 });
    expect(rows.map((r) => r.source).sort()).toEqual(expect.arrayContaining(["faq.csv", "refunds.md"]));
    expect(rows.filter((r) => r.source === "faq.csv")).toHaveLength(2);
    expect(fs.existsSync(stagingDir()) ? fs.readdirSync(stagingDir()) : []).toEqual([]);
  });

  it("a 4xx found on the worker (an unknown store) reaches the client as that 4xx", async () => {
    const res = await upsertFiles([{ name: "refunds.md", content: REFUNDS_MD }], { stopNodeId: "nope" });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: "validation_failed",
      message: expect.stringMatching(/stopNodeId: nope/),
    });
    expect(fs.existsSync(stagingDir()) ? fs.readdirSync(stagingDir()) : []).toEqual([]);
  });
});

describe("domain analysis through a worker", () => {
  it("analyses each domain on the worker, the run counting each outcome as it goes", async () => {
    await call(domains.POST, {
      method: "POST",
      headers: session,
      body: { names: ["shop.example.com", "refused.example.com"] },
    });
    const ids = (await (await getDb()).domain.findMany({ orderBy: { name: "asc" } })).map((d) => d.id);
    const started = await call(analyze.POST, {
      method: "POST",
      headers: session,
      body: { chatflowId: analystFlowId, ids },
    });
    expect(started.status).toBe(202);
    expect(started.json).toMatchObject({ queued: 2, run: { total: 2 } });
    const runId = started.json.run.id;
    const progress = () => call(runById.GET, { params: { id: runId }, headers: session });
    await waitFor(async () => (await progress()).json.succeeded + (await progress()).json.failed === 2, 30_000);
    expect((await progress()).json).toMatchObject({ total: 2, succeeded: 1, failed: 1 });
    const shop = await (await getDb()).domain.findUniqueOrThrow({ where: { name: "shop.example.com" } });
    expect(shop).toMatchObject({ analysisStatus: "succeeded", analysis: { summary: "shop.example.com sells things" } });
    const refused = await (await getDb()).domain.findUniqueOrThrow({ where: { name: "refused.example.com" } });
    expect(refused.analysisStatus).toBe("failed");
    // A model 400 is not worth a retry: asked once.
    expect(analysed.filter((d) => d === "refused.example.com")).toHaveLength(1);
  });
});
