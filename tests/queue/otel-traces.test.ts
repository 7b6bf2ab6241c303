import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { exampleFlow } from "../../dev/flows";
import { systemCaller, userCaller } from "../../dev/callers";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { insertUser } from "../../lib/db/queries/users";
import { resetEnvForTests } from "../../lib/env";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { flushTracing, startTracing, stopTracing } from "../../lib/telemetry/start";
import { auth, call } from "../support/http";
import { attr, createOtlpReceiver } from "../support/otlp-receiver";
import { spawnWorker, waitFor } from "./support";

// Queue mode: the trace of a prediction crosses Redis. This process is the API (its request span),
// a spawned worker runs the job: its run span is a child of the request's span, through the job's
// `traceparent`, and its log lines carry the same trace id.

let model: ModelStub;
let receiver: Awaited<ReturnType<typeof createOtlpReceiver>>;
let flowId: string;
let key: string;

beforeAll(async () => {
  [model, receiver] = await Promise.all([
    createModelStub({ brain: () => ({ content: "queued answer" }) }),
    createOtlpReceiver(),
  ]);
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" };
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: model.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const f = exampleFlow("conversation.json");
  flowId = (await createChatflow({ name: "conv", graph: f.graph as never }, systemCaller)).id;
  const owner = await insertUser({ email: "traces@example.invalid", name: "Traces", passwordHash: "-", role: "admin" });
  key = (await createApiKey({ name: "predict", permissions: ["predict"], chatflowIds: [] }, userCaller(owner))).key;
  // The worker exports its batches at once (OTEL_BSP_SCHEDULE_DELAY, the SDK's own setting).
  await spawnWorker({ ...otel, OTEL_BSP_SCHEDULE_DELAY: "50" });
  Object.assign(process.env, otel);
  resetEnvForTests();
  expect(await startTracing()).toBe(true);
});
afterAll(async () => {
  await stopTracing();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
  resetEnvForTests();
  await Promise.all([model.close(), receiver.close()]);
});

describe("a queued prediction's trace", () => {
  it("links the worker's run to the API's request span through the job's traceparent", async () => {
    const res = await call(prediction.POST, {
      method: "POST",
      path: `/api/v1/prediction/${flowId}`,
      params: { id: flowId },
      headers: auth.bearer(key),
      body: { question: "hello over the queue" },
    });
    expect(res.status).toBe(200);
    expect(res.json.text).toBe("queued answer");
    const [, traceId, requestSpanId] = res.headers.get("traceparent")!.split("-");
    await flushTracing();
    const inTrace = () => receiver.spans.filter((s) => s.span.traceId === traceId);
    const runOf = () => inTrace().find((s) => s.span.name === "run predictions");
    await waitFor(() => runOf() !== undefined && inTrace().some((s) => s.span.kind === 3));
    const run = runOf()!.span;
    expect(run.parentSpanId).toBe(requestSpanId);
    expect(attr(run, "switchyard.flow.id")).toBe(flowId);
    expect(attr(run, "switchyard.job.attempt")).toBeDefined();
    // The request's span came from this process, the run's from the worker: both under one service name.
    expect(inTrace().find((s) => s.span.spanId === requestSpanId)?.span.name).toBe("POST /api/v1/prediction/{id}");
    const modelCall = inTrace().find((s) => s.span.kind === 3 && String(attr(s.span, "url.full")).includes(model.url))!;
    expect(modelCall).toBeDefined();
  });
});
