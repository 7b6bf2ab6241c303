import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { basicAuth, embeddedAppEnv, type RunningProcess } from "../../dev/processes";
import { waitFor } from "../queue/support";
import { startAppProcess } from "../support/app-process-runner";

// Issue 33, durability of webhook runs: an asynchronous webhook call answers 202 with a run to poll,
// and the run's server is killed (SIGKILL) while the model is thinking. The next server on the same
// data closes the run as failed, saying the server stopped, instead of leaving it `running` forever;
// the model is not asked again (a run whose answer was lost is not run twice behind the caller's back).
// The kill waits on the model request arriving, never on time.

const admin = { email: "restart@test.local", password: "restart-pass-1" };
const auth = basicAuth(admin);

describe("an asynchronous webhook run when its embedded server is killed", () => {
  let stub: ModelStub;
  let modelAsked: () => void = () => {};
  const modelArrived = new Promise<void>((resolve) => (modelAsked = resolve));
  let env: Record<string, string>;
  let app: (RunningProcess & { url: string }) | undefined;

  beforeAll(async () => {
    // The model never answers: the run is mid-way when the process dies.
    stub = await createModelStub({
      brain: () => {
        modelAsked();
        return new Promise(() => {});
      },
    });
    const dataDir = fs.mkdtempSync(path.join(process.env.DATA_DIR!, "trigger-restart-"));
    env = embeddedAppEnv({
      dataDir,
      admin,
      model: { url: stub.url, port: stub.port },
      // A short lease: the next process finds the run's lease run out soon after it starts.
      extra: { LOAD_EXAMPLE_FLOWS: "false", AGENTFLOW_RUN_LEASE_SECONDS: "1" },
    });
  }, 60_000);
  afterAll(async () => {
    await app?.kill();
    await stub?.close();
  });

  const api = async (method: string, p: string, body?: unknown, headers: Record<string, string> = auth) => {
    const res = await fetch(`${app!.url}${p}`, {
      method,
      headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };

  it("is marked failed naming the stopped server, and the model is not asked again", async () => {
    app = await startAppProcess(env);
    const made = await api("POST", "/api/v1/chatflows", {
      name: "Hooked",
      graph: exampleFlow("conversation.json").graph,
    });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    const id = made.json.id as string;
    expect((await api("POST", `/api/v1/chatflows/${id}/publish`, { version: 1 })).status).toBe(200);
    expect((await api("PUT", `/api/v1/chatflows/${id}/webhook`, { enabled: true })).status).toBe(200);

    const accepted = await api("POST", `/api/v1/webhook/${id}?async=true`, { question: "Order 42?" }, {});
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(202);
    const runUrl = accepted.json.statusUrl as string;
    await modelArrived;
    expect((await api("GET", runUrl)).json.status).toBe("running");
    const modelCalls = stub.requests.length;

    expect((await app.kill()).signal).toBe("SIGKILL");
    app = await startAppProcess(env);
    await waitFor(
      async () => (await api("GET", runUrl)).json.status !== "running",
      60_000,
      () => app!.output().slice(-3000),
    );
    const run = (await api("GET", runUrl)).json;
    expect(run).toMatchObject({ status: "failed", source: "webhook" });
    expect(run.error).toMatch(/server running this run stopped \(a restart or a crash\)/);
    expect(run.finishedAt).toBeTruthy();
    expect(stub.requests.length).toBe(modelCalls);
  }, 300_000);
});
