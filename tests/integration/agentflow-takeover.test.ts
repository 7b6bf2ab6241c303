import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { basicAuth, embeddedAppEnv, type RunningProcess, spawnReady } from "../../dev/processes";
import { waitFor } from "../queue/support";
import { edge, node } from "../../dev/agentflow-graph";

// Issue 32, durability in an embedded server: a real server process (the app's start-up and route
// handlers, tests/support/app-process.ts, on its own PGlite data directory) is killed with SIGKILL while two agentflow runs are mid-way, and a second process
// started on the same data takes them over. Run A was waiting for the model after its HTTP step had
// finished: it goes on from there, and the HTTP node's call is not made again. Run B was waiting for
// its HTTP call's answer: that call may have happened, so the run fails saying so and the call is not
// made a second time. The kills wait on the requests arriving, never on time.

const admin = { email: "takeover@test.local", password: "takeover-pass-1" };
const auth = basicAuth(admin);

/** Starts the server process; resolves once it listens. */
async function startApp(env: Record<string, string>): Promise<RunningProcess & { url: string }> {
  let url = "";
  const proc = await spawnReady({
    name: "app process",
    command: process.execPath,
    args: ["--import", "tsx", "tests/support/app-process.ts"],
    env,
    ready: {
      line: (line) => {
        const m = /^READY (\S+)/.exec(line);
        if (m) url = m[1]!;
        return !!m;
      },
    },
    timeoutMs: 120_000,
  });
  return { ...proc, url };
}

/** The outside world the HTTP node calls: counts calls per path; /hold never answers. */
function startSideEffects() {
  const hits: Record<string, number> = {};
  let held: (() => void) | undefined;
  const heldOnce = new Promise<void>((resolve) => (held = resolve));
  const server = http.createServer((req, res) => {
    const p = new URL(req.url ?? "/", "http://x").pathname;
    hits[p] = (hits[p] ?? 0) + 1;
    if (p === "/hold") return held?.();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ refunded: true }));
  });
  return {
    hits,
    heldOnce,
    listen: () =>
      new Promise<number>((r) => server.listen(0, "127.0.0.1", () => r((server.address() as AddressInfo).port))),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Start → HTTP (GET side/refund) → LLM → Direct Reply quoting the LLM. */
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

/** Start → HTTP (GET side/hold, which never answers) → Direct Reply. */
const heldCall = (side: string) => ({
  nodes: [
    node("start", "startAgentflow"),
    node("charge", "httpAgentflow", { method: "GET", url: `${side}/hold` }),
    node("reply", "directReplyAgentflow", { directReplyMessage: "Charged." }),
  ],
  edges: [edge("start", "output", "charge"), edge("charge", "output", "reply")],
});

type Run = { id: string; status: string; error: string | null };
type Detail = Run & { executionData: { nodeId: string; status: string; data: { calls?: Record<string, unknown> } }[] };

describe("an agentflow run when its embedded server is killed", () => {
  let stub: ModelStub;
  let modelAsked: () => void = () => {};
  const modelArrived = new Promise<void>((resolve) => (modelAsked = resolve));
  let answerModel = false;
  const side = startSideEffects();
  let sideUrl = "";
  let env: Record<string, string>;
  let app: (RunningProcess & { url: string }) | undefined;

  beforeAll(async () => {
    // The first process's model call never comes back (it is killed waiting); the next ones answer.
    stub = await createModelStub({
      brain: () => {
        modelAsked();
        return answerModel ? { content: "Summary done." } : new Promise(() => {});
      },
    });
    sideUrl = `http://127.0.0.1:${await side.listen()}`;
    const dataDir = fs.mkdtempSync(path.join(process.env.DATA_DIR!, "takeover-"));
    env = embeddedAppEnv({
      dataDir,
      admin,
      model: { url: stub.url, port: stub.port },
      extra: {
        LOAD_EXAMPLE_FLOWS: "false",
        OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${stub.port},${new URL(sideUrl).host}`,
        // A short lease: the second process takes the runs over soon after it starts.
        AGENTFLOW_RUN_LEASE_SECONDS: "1",
      },
    });
  }, 60_000);
  afterAll(async () => {
    await app?.kill();
    side.close();
    await stub?.close();
  });

  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${app!.url}${p}`, {
      method,
      headers: { ...auth, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const createAgentflow = async (name: string, graph: unknown) => {
    const res = await api("POST", "/api/v1/chatflows", { name, type: "AGENTFLOW", graph });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json.id as string;
  };
  const runsOf = async (flowId: string) =>
    ((await api("GET", `/api/v1/executions?agentflowId=${flowId}`)).json.data as Run[]) ?? [];

  it("goes on from its last finished step, or fails naming a call that may have happened; no call is made twice", async () => {
    app = await startApp(env);
    const summaryFlow = await createAgentflow("Refund then summary", refundThenSummary(sideUrl, stub.url));
    const heldFlow = await createAgentflow("Held charge", heldCall(sideUrl));
    // Both predictions end with the process; their answers never come.
    const predict = (flowId: string, chatId: string) =>
      fetch(`${app!.url}/api/v1/prediction/${flowId}`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ question: "Refund order 42", chatId }),
      }).catch((err: unknown) => err);
    const lost = [predict(summaryFlow, "chat-summary"), predict(heldFlow, "chat-held")];
    await modelArrived;
    await side.heldOnce;
    const [a] = await runsOf(summaryFlow);
    const [b] = await runsOf(heldFlow);
    expect([a?.status, b?.status]).toEqual(["running", "running"]);
    const before = { ...side.hits };
    expect(before).toEqual({ "/refund": 1, "/hold": 1 });
    const modelCallsBefore = stub.requests.length;

    expect((await app.kill()).signal).toBe("SIGKILL");
    await Promise.all(lost);
    answerModel = true;
    app = await startApp(env);

    await waitFor(
      async () =>
        (await runsOf(summaryFlow))[0]?.status !== "running" && (await runsOf(heldFlow))[0]?.status !== "running",
      60_000,
      () => app!.output().slice(-3000),
    );
    // Run A: the HTTP step is not run again; the unfinished LLM step asks the model once more.
    const runA = (await api("GET", `/api/v1/executions/${a!.id}`)).json as unknown as Detail;
    expect(runA.status, runA.error ?? "").toBe("finished");
    expect(runA.executionData.map((n) => [n.nodeId, n.status])).toEqual([
      ["start", "FINISHED"],
      ["refund", "FINISHED"],
      ["summary", "FINISHED"],
      ["reply", "FINISHED"],
    ]);
    expect(stub.requests.length).toBe(modelCallsBefore + 1);
    const messages = (await api("GET", `/api/v1/chatmessage/${summaryFlow}`)).json as unknown as {
      role: string;
      content: string;
    }[];
    // The exchange is stored once, by the process that finished the run.
    expect(messages.map((m) => [m.role, m.content]).sort()).toEqual([
      ["apiMessage", "Done: Summary done."],
      ["userMessage", "Refund order 42"],
    ]);
    // Run B: its HTTP call was out when the process died: failed, naming it, not sent again.
    const runB = (await api("GET", `/api/v1/executions/${b!.id}`)).json as unknown as Detail;
    expect(runB.status).toBe("error");
    expect(runB.error).toContain(`"HTTP" (charge): its request GET ${sideUrl}/hold had started when the server`);
    expect(side.hits).toEqual(before);
  }, 300_000);
});
