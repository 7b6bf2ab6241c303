import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { userCaller } from "../../dev/callers";
import { initialPosition } from "../../lib/agentflow/position";
import { getDb } from "../../lib/db/client";
import { findExecutionById, insertExecution } from "../../lib/db/queries/executions";
import { resetEnvForTests } from "../../lib/env";
import {
  continueAbandonedRun,
  takeOverAbandonedRuns,
  takeOverRun,
  takeoverCapReason,
} from "../../lib/services/agentflow-recovery";
import { createChatflow } from "../../lib/services/chatflows";
import { setupFirstAdmin } from "../../lib/services/users";
import { waitFor } from "../queue/support";
import { edge, node } from "../../dev/agentflow-graph";

// Issue 32, the takeover cap (AGENTFLOW_MAX_TAKEOVERS): a run whose process keeps dying is taken over
// at most that many times, then marked error naming the cap instead of being handed on for ever.
// The deaths are simulated without killing a process: the run's lease is set to have run out, as a
// dead process leaves it (the lease here is an hour, so nothing renews it before the test does), and
// each takeover is what a sweep does (takeOverRun, then continueAbandonedRun); each continuation hangs
// in its model step (the stub does not answer), as a process that dies there would. The HTTP step
// before it is made once, by the first takeover: later ones read it from the run's stored steps. The
// sweep itself (takeOverAbandonedRuns) marks a run at the cap as error, and leaves alone a run this
// process is still running.

const MAX = 2;

/** Start → HTTP (GET side/refund) → LLM → Direct Reply. */
const refundThenSummary = (side: string, model: string) => ({
  nodes: [
    node("start", "startAgentflow"),
    node("refund", "httpAgentflow", { method: "GET", url: `${side}/refund?order=42` }),
    node("model", "chatOpenAICompatible", { baseURL: model, model: "stub-model", temperature: 0 }),
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

describe("the takeover cap of an agentflow run (embedded sweep)", () => {
  let stub: ModelStub;
  /** The model's answers, held: each resolves when released (after the cap, to see the old continuations stopped). */
  const held: (() => void)[] = [];
  let hits = 0;
  const side = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ refunded: true }));
  });
  const saved = { ...process.env };

  beforeAll(async () => {
    stub = await createModelStub({
      brain: () => new Promise((resolve) => held.push(() => resolve({ content: "Summary done." }))),
    });
    await new Promise<void>((r) => side.listen(0, "127.0.0.1", r));
    // An hour's lease: this process never renews a lease before the test has made it run out.
    Object.assign(process.env, { AGENTFLOW_RUN_LEASE_SECONDS: "3600", AGENTFLOW_MAX_TAKEOVERS: String(MAX) });
    resetEnvForTests();
  });
  afterAll(async () => {
    for (const release of held) release();
    side.closeAllConnections();
    side.close();
    await stub?.close();
    process.env = saved;
    resetEnvForTests();
  });

  /** The lease of the run runs out, as when the process running it dies. */
  const processDies = async (id: string) => {
    await (await getDb()).execution.update({ where: { id }, data: { leaseUntil: new Date(Date.now() - 1000) } });
  };

  it("is taken over AGENTFLOW_MAX_TAKEOVERS times, then marked error naming the cap; its HTTP call is made once", async () => {
    const admin = await setupFirstAdmin({ email: "cap@runs.test", name: "Admin", password: "cap-password-1" });
    const sideUrl = `http://127.0.0.1:${(side.address() as AddressInfo).port}`;
    const flow = await createChatflow(
      { name: "Crash loop", type: "AGENTFLOW", graph: refundThenSummary(sideUrl, stub.url) as never },
      userCaller(admin),
    );
    // A run its process left before its first step: running, its lease run out.
    const leftRun = (chatId: string, takeovers = 0) =>
      insertExecution({
        data: {
          chatflowId: flow.id,
          version: flow.version,
          sessionId: chatId,
          chatId,
          position: initialPosition("start", "Refund order 42") as never,
          leaseUntil: new Date(Date.now() - 1000),
        },
      }).then(async (row) => {
        if (takeovers) await (await getDb()).execution.update({ where: { id: row.id }, data: { takeovers } });
        return row;
      });
    const run = await leftRun("chat-loop");
    const continuations: Promise<void>[] = [];

    for (let takeover = 1; takeover <= MAX; takeover++) {
      expect(await takeOverRun(run.id)).toBe("taken");
      continuations.push(continueAbandonedRun(run.id));
      // The continuation reached the model step (and hangs there, as a dying process would).
      await waitFor(() => stub.requests.length === takeover, 20_000);
      const row = await findExecutionById({ id: run.id });
      expect([row?.status, row?.takeovers]).toEqual(["running", takeover]);
      // This process runs it now: its own sweep leaves it alone.
      expect(await takeOverAbandonedRuns()).toEqual([]);
      await processDies(run.id);
    }
    // Taken over MAX times already: the next takeover marks it error instead.
    expect(await takeOverRun(run.id)).toBe("capped");
    const capped = await findExecutionById({ id: run.id });
    expect(capped?.status).toBe("error");
    expect(capped?.error).toBe(takeoverCapReason(MAX));
    expect(capped?.error).toContain(`AGENTFLOW_MAX_TAKEOVERS=${MAX}`);
    expect(capped?.takeovers).toBe(MAX);
    expect(capped?.leaseUntil).toBeNull();
    // Every continuation asked the model (one each); the HTTP step ran once, by the first.
    expect(stub.requests.length).toBe(MAX);
    expect(hits).toBe(1);
    expect(await takeOverRun(run.id)).toBe("held");

    // The sweep does the same: a left run taken over MAX times already is marked error, not taken.
    const another = await leftRun("chat-loop-2", MAX);
    expect(await takeOverAbandonedRuns()).toEqual([]);
    expect(await findExecutionById({ id: another.id })).toMatchObject({
      status: "error",
      error: takeoverCapReason(MAX),
      takeovers: MAX,
    });
    expect(stub.requests.length).toBe(MAX);

    // The continuations still hanging get their answers now: each finds the run ended and stops
    // (its save is refused, counted as a failed answer), leaving the cap's error as it is.
    for (const release of held.splice(0)) release();
    await Promise.all(continuations);
    const db = await getDb();
    expect(await db.usageRecord.count({ where: { chatflowId: flow.id, error: "conflict" } })).toBe(MAX);
    const after = await findExecutionById({ id: run.id });
    expect([after?.status, after?.error]).toEqual(["error", takeoverCapReason(MAX)]);
    expect(await db.chatMessage.count({ where: { chatflowId: flow.id } })).toBe(0);
    expect(hits).toBe(1);
  });
});
