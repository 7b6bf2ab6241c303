import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { type BrainReply, createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { initialPosition } from "../../lib/agentflow/position";
import { getDb } from "../../lib/db/client";
import { insertExecution } from "../../lib/db/queries/executions";
import { resetEnvForTests } from "../../lib/env";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { auth } from "../support/http";
import { killWorkers, spawnWorker, waitFor } from "./support";
import { edge, node } from "../../dev/agentflow-graph";

// Issue 32 in queue mode (point 10): an agentflow run is a prediction job whose steps are stored
// after each node. A worker SIGKILLed mid-run hands the run over: the job's retry on another worker
// waits for the dead worker's lease on the run to run out (AGENTFLOW_RUN_LEASE_SECONDS, 1 s here),
// takes the run over and goes on from its last finished node; a run no job retries is taken over by
// the workers' sweep. Each finished node's HTTP call is counted on a real local server: made once.
// A run paused at Human Input holds no worker, and its resume is a job of its own. Every wait is on an
// event (a request arriving, a row's status), never on time.

let model: ModelStub;
let key: string;
const hits: Record<string, number> = {};
const side = http.createServer((req, res) => {
  const p = new URL(req.url ?? "/", "http://x").pathname;
  hits[p] = (hits[p] ?? 0) + 1;
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ refunded: true, path: p }));
});
let sideUrl = "";

/** Start → HTTP (GET side/<path>) → LLM → Direct Reply quoting the LLM. */
const refundThenSummary = (path: string) => ({
  nodes: [
    node("start", "startAgentflow"),
    node("refund", "httpAgentflow", { method: "GET", url: `${sideUrl}${path}?order=42` }),
    node("model", "chatOpenAICompatible", { baseURL: model.url, model: "stub-model", temperature: 0 }),
    node("summary", "llmAgentflow", { llmEnableMemory: false, llmUserMessage: "Summarise: {{refund}}" }),
    node("reply", "directReplyAgentflow", { directReplyMessage: "Done: {{summary}}" }),
  ],
  edges: [
    edge("start", "output", "refund"),
    edge("refund", "output", "summary"),
    edge("model", "chatModel", "summary", "model"),
    edge("summary", "output", "reply"),
  ],
});

/** Start → Human Input → (proceed) HTTP side/<path> → Direct Reply / (reject) Direct Reply. */
const approval = (path: string) => ({
  nodes: [
    node("start", "startAgentflow"),
    node("approve", "humanInputAgentflow", { humanInputDescription: "Refund order 42?" }),
    node("refund", "httpAgentflow", { method: "GET", url: `${sideUrl}${path}` }),
    node("done", "directReplyAgentflow", { directReplyMessage: "Refunded." }),
    node("no", "directReplyAgentflow", { directReplyMessage: "Not refunded." }),
  ],
  edges: [
    edge("start", "output", "approve"),
    edge("approve", "proceed", "refund"),
    edge("approve", "reject", "no"),
    edge("refund", "output", "done"),
  ],
});

/** Start → Human Input → (proceed) HTTP side/<path> → LLM → Direct Reply quoting the LLM / (reject) Direct Reply. */
const approvalThenSummary = (path: string) => ({
  nodes: [
    node("start", "startAgentflow"),
    node("approve", "humanInputAgentflow", { humanInputDescription: "Refund order 42?" }),
    node("refund", "httpAgentflow", { method: "GET", url: `${sideUrl}${path}` }),
    node("model", "chatOpenAICompatible", { baseURL: model.url, model: "stub-model", temperature: 0 }),
    node("summary", "llmAgentflow", { llmEnableMemory: false, llmUserMessage: "Summarise: {{refund}}" }),
    node("reply", "directReplyAgentflow", { directReplyMessage: "Done: {{summary}}" }),
    node("no", "directReplyAgentflow", { directReplyMessage: "Not refunded." }),
  ],
  edges: [
    edge("start", "output", "approve"),
    edge("approve", "proceed", "refund"),
    edge("approve", "reject", "no"),
    edge("refund", "output", "summary"),
    edge("model", "chatModel", "summary", "model"),
    edge("summary", "output", "reply"),
  ],
});

/** A brain whose first call answers `first` and every later call `then`. */
function firstThen(first: BrainReply, then: BrainReply) {
  let calls = 0;
  return () => (calls++ === 0 ? first : then);
}

beforeAll(async () => {
  model = await createModelStub({ brain: () => ({ content: "Summary done." }) });
  await new Promise<void>((r) => side.listen(0, "127.0.0.1", r));
  sideUrl = `http://127.0.0.1:${(side.address() as AddressInfo).port}`;
  // Workers inherit these: a dead worker's run lease runs out a second after its last renewal; a job
  // lock of 4 s (setup.ts: 1.5 s) so a live worker on a loaded machine keeps its job (a job stalled
  // twice fails with 503 worker_lost, and this test is about one death).
  Object.assign(process.env, { AGENTFLOW_RUN_LEASE_SECONDS: "1", JOB_LOCK_MS: "4000" });
  resetEnvForTests();
  key = (await createApiKey({ name: "predict", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner()))
    .key;
});
afterAll(async () => {
  await killWorkers();
  side.closeAllConnections();
  side.close();
  await model?.close();
});

const createAgentflow = async (name: string, graph: object) =>
  (await createChatflow({ name, type: "AGENTFLOW", graph: graph as never }, systemCaller)).id;

const predict = (flowId: string, body: object) =>
  prediction.POST(
    new Request(`http://127.0.0.1:3000/api/v1/prediction/${flowId}`, {
      method: "POST",
      headers: { ...auth.bearer(key), "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: flowId }) },
  );

const runsOf = async (chatflowId: string) =>
  (await getDb()).execution.findMany({ where: { chatflowId }, orderBy: { createdAt: "asc" } });
const messagesOf = async (chatflowId: string) =>
  (await getDb()).chatMessage.findMany({ where: { chatflowId }, orderBy: [{ createdAt: "asc" }, { role: "desc" }] });
const stepsOf = (run: { executedData: unknown }) =>
  (run.executedData as { nodeId: string; status: string }[]).map((n) => [n.nodeId, n.status]);

describe("an agentflow run whose worker is killed (SIGKILL)", () => {
  it("goes on on another worker from its last finished node: finished once, its HTTP call made once", async () => {
    const flowId = await createAgentflow("Refund then summary", refundThenSummary("/refund-a"));
    const a = await spawnWorker();
    // Worker A's model call never answers (it is killed waiting); the next one answers.
    model.setBrain(firstThen({ content: "never", delivery: { hang: true } }, { content: "Summary done." }));
    const before = model.requests.length;
    const pending = predict(flowId, { question: "Refund order 42", chatId: "killed-run" });
    await waitFor(() => model.requests.length > before, 30_000, a.output);
    // A is mid-run: its HTTP step finished, its LLM step waits for the model.
    const [left] = await runsOf(flowId);
    expect(left?.status).toBe("running");
    expect(stepsOf(left!)).toEqual([
      ["start", "FINISHED"],
      ["refund", "FINISHED"],
    ]);
    expect(left?.runId).toBeTruthy();
    expect(hits["/refund-a"]).toBe(1);

    const b = await spawnWorker();
    a.child.kill("SIGKILL");
    await a.exited;
    // The caller, still waiting, gets the answer of the run B finished.
    const res = await pending;
    const body = (await res.json()) as { text: string; executionId: string };
    expect(res.status, JSON.stringify(body) + b.output().slice(-2000)).toBe(200);
    expect(body).toMatchObject({ text: "Done: Summary done.", executionId: left!.id });

    const runs = await runsOf(flowId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ id: left!.id, status: "finished", takeovers: 1, error: null });
    // Each node once: the HTTP step was not run again, the unfinished LLM step asked the model once more.
    expect(stepsOf(runs[0]!)).toEqual([
      ["start", "FINISHED"],
      ["refund", "FINISHED"],
      ["summary", "FINISHED"],
      ["reply", "FINISHED"],
    ]);
    expect(hits["/refund-a"]).toBe(1);
    expect(model.requests.length - before).toBe(2);
    expect((await messagesOf(flowId)).map((m) => [m.role, m.content])).toEqual([
      ["userMessage", "Refund order 42"],
      ["apiMessage", "Done: Summary done."],
    ]);
    b.child.kill("SIGKILL");
    await b.exited;
  }, 400_000);

  it("a run no job retries (its job is gone) is taken over by a worker's sweep and finished once", async () => {
    model.setBrain(() => ({ content: "Summary done." }));
    const flowId = await createAgentflow("Orphaned refund", refundThenSummary("/refund-b"));
    const flow = await (await getDb()).chatflow.findUniqueOrThrow({ where: { id: flowId } });
    // What a worker that died with its job lost leaves: a running run whose lease ran out, no job.
    const orphan = await insertExecution({
      data: {
        chatflowId: flowId,
        version: flow.version,
        sessionId: "orphan",
        chatId: "orphan",
        position: initialPosition("start", "Refund order 42") as never,
        leaseUntil: new Date(Date.now() - 1000),
      },
    });
    const w = await spawnWorker();
    await waitFor(
      async () => (await runsOf(flowId))[0]?.status !== "running",
      60_000,
      () => w.output().slice(-3000),
    );
    const [run] = await runsOf(flowId);
    expect(run).toMatchObject({ id: orphan.id, status: "finished", takeovers: 1, error: null });
    expect(stepsOf(run!)).toEqual([
      ["start", "FINISHED"],
      ["refund", "FINISHED"],
      ["summary", "FINISHED"],
      ["reply", "FINISHED"],
    ]);
    expect(hits["/refund-b"]).toBe(1);
    expect((await messagesOf(flowId)).map((m) => [m.role, m.content])).toEqual([
      ["userMessage", "Refund order 42"],
      ["apiMessage", "Done: Summary done."],
    ]);
    w.child.kill("SIGKILL");
    await w.exited;
  }, 300_000);
});

describe("a paused agentflow run in queue mode", () => {
  it("holds no worker while it waits, and its resume is a job that continues it on a worker", async () => {
    const flowId = await createAgentflow("Approval", approval("/refund-c"));
    // One job at a time: a paused run that held its worker would block every other run.
    const w = await spawnWorker({ WORKER_CONCURRENCY: "1" });
    const first = await predict(flowId, { question: "Refund order 42", chatId: "approval-1" });
    const paused = (await first.json()) as { action?: { data?: { nodeId?: string } }; executionId: string };
    expect(first.status, JSON.stringify(paused)).toBe(200);
    expect(paused.action?.data?.nodeId).toBe("approve");
    expect((await runsOf(flowId))[0]).toMatchObject({ status: "paused", leaseUntil: null });
    // The same worker (concurrency 1) runs another chat to its own pause meanwhile.
    const other = await predict(flowId, { question: "Refund order 43", chatId: "approval-2" });
    expect(other.status).toBe(200);
    expect(((await other.json()) as { action?: unknown }).action).toBeTruthy();
    expect(hits["/refund-c"]).toBeUndefined();

    const resumed = await predict(flowId, {
      chatId: "approval-1",
      humanInput: { type: "proceed", startNodeId: "approve" },
    });
    const answer = (await resumed.json()) as { text: string; executionId: string };
    expect(resumed.status, JSON.stringify(answer)).toBe(200);
    expect(answer).toMatchObject({ text: "Refunded.", executionId: paused.executionId });
    expect(hits["/refund-c"]).toBe(1);
    const run = (await runsOf(flowId)).find((r) => r.id === paused.executionId)!;
    expect(run.status).toBe("finished");
    // The Human Input step's pause stays in the run's steps; every node ran once.
    expect(stepsOf(run)).toEqual([
      ["start", "FINISHED"],
      ["approve", "STOPPED"],
      ["approve", "FINISHED"],
      ["refund", "FINISHED"],
      ["done", "FINISHED"],
    ]);
    // A second resume finds nothing waiting.
    const again = await predict(flowId, {
      chatId: "approval-1",
      humanInput: { type: "proceed", startNodeId: "approve" },
    });
    expect(again.status).toBe(409);
    expect(hits["/refund-c"]).toBe(1);
    w.child.kill("SIGKILL");
    await w.exited;
  }, 300_000);
});

describe("a resumed agentflow run whose worker is killed (SIGKILL)", () => {
  it("the resume's retry on another worker goes on after the Human Input: its HTTP call made once", async () => {
    model.setBrain(() => ({ content: "Summary done." }));
    const flowId = await createAgentflow("Approval then summary", approvalThenSummary("/refund-d"));
    const a = await spawnWorker();
    const first = await predict(flowId, { question: "Refund order 42", chatId: "resume-killed" });
    const paused = (await first.json()) as { executionId: string };
    expect(first.status, JSON.stringify(paused)).toBe(200);
    // The resumed run's model call never answers on A (it is killed waiting); the next one answers.
    model.setBrain(firstThen({ content: "never", delivery: { hang: true } }, { content: "Summary done." }));
    const before = model.requests.length;
    const pending = predict(flowId, {
      chatId: "resume-killed",
      humanInput: { type: "proceed", startNodeId: "approve" },
    });
    await waitFor(() => model.requests.length > before, 60_000, a.output);
    expect(hits["/refund-d"]).toBe(1);
    const b = await spawnWorker();
    a.child.kill("SIGKILL");
    await a.exited;
    const res = await pending;
    const body = (await res.json()) as { text: string; executionId: string };
    expect(res.status, JSON.stringify(body) + b.output().slice(-2000)).toBe(200);
    expect(body).toMatchObject({ text: "Done: Summary done.", executionId: paused.executionId });
    const [run] = await runsOf(flowId);
    expect(run).toMatchObject({ id: paused.executionId, status: "finished", takeovers: 1, error: null });
    expect(stepsOf(run!)).toEqual([
      ["start", "FINISHED"],
      ["approve", "STOPPED"],
      ["approve", "FINISHED"],
      ["refund", "FINISHED"],
      ["summary", "FINISHED"],
      ["reply", "FINISHED"],
    ]);
    expect(hits["/refund-d"]).toBe(1);
    expect(model.requests.length - before).toBe(2);
    b.child.kill("SIGKILL");
    await b.exited;
  }, 400_000);
});
