// Finding 6 (model half) of issue 10: every model failure answered `500 internal`, and a model that
// never answered held the request for 241 s. A refused connection, an upstream 5xx and a silent
// model now answer 502/503/504 naming the node and the host (never the key), in JSON and in the
// SSE `error` event, and MODEL_TIMEOUT_MS bounds every model call.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { systemCaller } from "../../dev/callers";
import { parseSse } from "../../dev/route-server";
import { closedPort, createRecordingServer, type RecordingServer } from "../support/recording-server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow } from "../../lib/services/chatflows";
import { createCredential } from "../../lib/services/credentials";
import type { Graph } from "@/common/schemas/graph";

const KEY = "sk-model-errors-secret";
let failing: RecordingServer;
let silent: RecordingServer;
let refusedUrl: string;

beforeAll(async () => {
  failing = await createRecordingServer((_req, res) => {
    res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "boom" } }));
  });
  silent = await createRecordingServer(() => undefined); // takes the request, never answers
  refusedUrl = `http://127.0.0.1:${await closedPort()}/v1`;
  delete process.env.OPENAI_BASE_URL;
  Object.assign(process.env, {
    OPENAI_API_KEY: "sk-server",
    OPENAI_MODEL: "stub-model",
    MODEL_TIMEOUT_MS: "400",
    OUTBOUND_ALLOW_PRIVATE: "true",
  });
  resetEnvForTests();
});
afterAll(() => Promise.all([failing.close(), silent.close()]));

let count = 0;
/** A public conversation flow whose chat model (label "Flaky model", id chatModel) talks to baseURL with its own credential. */
async function flowAt(baseURL: string): Promise<string> {
  const credential = (
    await createCredential(
      { name: `model ${(count += 1)}`, type: "openai", data: { apiKey: KEY, baseURL } },
      systemCaller,
    )
  ).id;
  const graph = exampleFlow("conversation.json").graph as Graph;
  const model = graph.nodes.find((n) => n.type === "chatOpenAICompatible")!;
  model.data.label = "Flaky model";
  Object.assign(model.data.inputs, { credential });
  return (await createChatflow({ name: `model errors ${count}`, graph: graph as never, isPublic: true }, systemCaller))
    .id;
}

const predict = (id: string, body: object) => call(prediction.POST, { method: "POST", params: { id }, body });

/** Issue 14: a sentence naming the node and the host; the node's id, the host and the reason in `details`. */
function expectNamed(error: { message: string; details?: unknown }, host: string, reason: string) {
  expect(error.message).toMatch(/^Chat model “Flaky model” /);
  expect(error.message).toContain(host);
  expect(error.message).toMatch(/\.$/);
  expect(error.message).not.toContain(KEY);
  expect(error.message).not.toContain("Outbound request");
  expect(error.details).toMatchObject({
    node: { id: "chatModel", label: "Flaky model" },
    kind: "Chat model",
    host,
    reason,
  });
}

describe("model failures in JSON", () => {
  it("a refused connection answers 503 upstream_unavailable naming node and host", async () => {
    const res = await predict(await flowAt(refusedUrl), { question: "hello" });
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe("upstream_unavailable");
    expectNamed(res.json.error, new URL(refusedUrl).host, "connection_refused");
    expect(res.json.error.message).toBe(
      `Chat model “Flaky model” could not be reached: connection refused at ${new URL(refusedUrl).host}.`,
    );
  });

  it("an upstream 5xx answers 502 upstream_error naming node and host", async () => {
    const res = await predict(await flowAt(`${failing.origin}/v1`), { question: "hello" });
    expect(res.status).toBe(502);
    expect(res.json.error.code).toBe("upstream_error");
    expectNamed(res.json.error, failing.host, "http_error");
    expect(res.json.error.details.status).toBe(500);
    expect(failing.requests.length).toBe(1); // no retries: the deadline is the deadline
  });

  it("a host name that does not resolve answers 503 naming the node and the name (DNS)", async () => {
    const res = await predict(await flowAt("http://no-such-model-host.invalid/v1"), { question: "hello" });
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe("upstream_unavailable");
    expectNamed(res.json.error, "no-such-model-host.invalid", "dns");
    expect(res.json.error.message).toContain("“no-such-model-host.invalid” could not be resolved");
  });

  it("a private address the operator did not allow is refused, naming the node, the host and the setting", async () => {
    process.env.OUTBOUND_ALLOW_PRIVATE = "false";
    resetEnvForTests();
    try {
      const res = await predict(await flowAt(`${failing.origin}/v1`), { question: "hello" });
      expect(res.status).toBe(403);
      expectNamed(res.json.error, failing.host, "refused_by_guard");
      expect(res.json.error.message).toContain(`may not call ${failing.host}`);
      expect(res.json.error.message).toContain("OUTBOUND_ALLOW_HOSTS");
    } finally {
      process.env.OUTBOUND_ALLOW_PRIVATE = "true";
      resetEnvForTests();
    }
  });

  it("a model that never answers gives 504 upstream_timeout after MODEL_TIMEOUT_MS", async () => {
    const res = await predict(await flowAt(`${silent.origin}/v1`), { question: "hello" });
    expect(res.status).toBe(504);
    expect(res.json.error.code).toBe("upstream_timeout");
    expectNamed(res.json.error, silent.host, "timeout");
    expect(res.json.error.message).toContain("400 ms");
  });
});

describe("model failures while streaming", () => {
  for (const [what, url, code, reason] of [
    ["refused connection", () => refusedUrl, "upstream_unavailable", "connection_refused"],
    ["silent model", () => `${silent.origin}/v1`, "upstream_timeout", "timeout"],
  ] as const) {
    it(`a ${what} becomes an SSE error event {code: ${code}, message} before end`, async () => {
      const res = await predict(await flowAt(url()), { question: "hello", streaming: true });
      expect(res.status).toBe(200);
      const events = parseSse(res.text);
      const error = events.find((e) => e.event === "error");
      expect(error?.data).toMatchObject({ code });
      expectNamed(error!.data as { message: string; details?: unknown }, new URL(url()).host, reason);
      expect(events.at(-1)?.event).toBe("end");
    });
  }
});
