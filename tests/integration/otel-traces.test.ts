// Traces over OTLP/HTTP (docs/operations.md, "Traces"): a local OTLP receiver (JSON protocol) gets
// the span tree of a product-search agent run: the request, the run, the agent's chains, its model
// calls, the product_search tool and the tool's call to the product API, each linked to its parent;
// the database statements too. An endpoint that is down costs requests nothing and warns once.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth, type RouteHandler } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as ping from "../../app/api/v1/ping/route";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { systemCaller, userCaller } from "../../dev/callers";
import { insertUser } from "../../lib/db/queries/users";
import { flushTracing, startTracing, stopTracing } from "../../lib/telemetry/start";
import { createLogger, replaceRootLogger } from "../../lib/log";
import { readExampleFlows } from "../../lib/services/examples";
import { attr, createOtlpReceiver, type OtlpSpan } from "../support/otlp-receiver";

/** A port nothing listens on: a server is started on a free port and closed. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Log lines written while a test runs, as parsed JSON. */
function captureLog() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n")) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  const undo = replaceRootLogger(createLogger({ level: "info", destination }));
  return { lines, undo };
}

let stub: ModelStub;
let productApi: ProductApi;
let key: string;
let agentId: string;
let researchId: string;
const saved = { ...process.env };

beforeAll(async () => {
  [stub, productApi] = await Promise.all([createModelStub(), createProductApi()]);
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const flow = exampleFlow("product-search-agent.json", { productApiUrl: productApi.url });
  agentId = (
    await createChatflow(
      { name: "agent", graph: flow.graph as never, overrideAllowList: flow.overrideAllowList },
      systemCaller,
    )
  ).id;
  const research = readExampleFlows().find((e) => e.file === "agentflow-research.json")!;
  researchId = (
    await createChatflow({ name: research.name, type: research.type, graph: research.graph as never }, systemCaller)
  ).id;
  const owner = await insertUser({ email: "traces@example.invalid", name: "Traces", passwordHash: "-", role: "admin" });
  key = (await createApiKey({ name: "predict", permissions: ["predict"], chatflowIds: [] }, userCaller(owner))).key;
});
afterAll(async () => {
  await stopTracing();
  for (const name of Object.keys(process.env)) if (name.startsWith("OTEL_")) delete process.env[name];
  Object.assign(process.env, saved);
  resetEnvForTests();
  await Promise.all([stub.close(), productApi.close()]);
});

const predict = (question: string, headers: Record<string, string> = {}) =>
  call(prediction.POST, {
    method: "POST",
    path: `/api/v1/prediction/${agentId}`,
    params: { id: agentId },
    headers: { ...auth.bearer(key), ...headers },
    body: { question },
  });

describe("traces of a product-search agent run", () => {
  let receiver: Awaited<ReturnType<typeof createOtlpReceiver>>;
  const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
  const callerSpan = "00f067aa0ba902b7";
  let answer: Awaited<ReturnType<typeof predict>>;
  let trace: OtlpSpan[];
  let log: ReturnType<typeof captureLog>;
  let agentflowAnswer: Awaited<ReturnType<typeof predict>>;

  beforeAll(async () => {
    receiver = await createOtlpReceiver();
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "switchyard-test",
    });
    resetEnvForTests();
    expect(await startTracing()).toBe(true);
    log = captureLog();
    answer = await predict("find me a laptop under 1500 in Germany", {
      traceparent: `00-${callerTrace}-${callerSpan}-01`,
    });
    log.undo();
    agentflowAnswer = await call(prediction.POST, {
      method: "POST",
      path: `/api/v1/prediction/${researchId}`,
      params: { id: researchId },
      headers: auth.bearer(key),
      body: { question: "What is QuickJS? How does PGlite store data?" },
    });
    await flushTracing();
    trace = receiver.spans.filter((s) => s.span.traceId === callerTrace).map((s) => s.span);
  });
  afterAll(async () => {
    await stopTracing();
    await receiver.close();
  });

  const byId = (id: string | undefined) => trace.find((s) => s.spanId === id);
  const ancestors = (span: OtlpSpan) => {
    const out: OtlpSpan[] = [];
    for (let p = byId(span.parentSpanId); p; p = byId(p.parentSpanId)) out.push(p);
    return out;
  };

  it("answers as without tracing, with a traceparent header naming the request's span", () => {
    expect(answer.status).toBe(200);
    expect(answer.json.usedTools[0]).toMatchObject({ tool: "product_search" });
    const header = answer.headers.get("traceparent");
    expect(header).toMatch(new RegExp(`^00-${callerTrace}-[0-9a-f]{16}-01$`));
    const request = byId(header!.split("-")[2])!;
    expect(request).toMatchObject({ name: "POST /api/v1/prediction/{id}", kind: 2, parentSpanId: callerSpan });
    expect(attr(request, "http.route")).toBe("/api/v1/prediction/{id}");
    expect(attr(request, "http.request.method")).toBe("POST");
    expect(String(attr(request, "http.response.status_code"))).toBe("200");
  });

  it("exports to <endpoint>/v1/traces under OTEL_SERVICE_NAME", () => {
    expect(receiver.paths).toContain("/v1/traces");
    expect(receiver.spans.find((s) => s.span.traceId === callerTrace)?.service).toBe("switchyard-test");
  });

  it("nests the run under the request, and the agent's chains, model calls and tool under the run", () => {
    const request = byId(answer.headers.get("traceparent")!.split("-")[2])!;
    const run = trace.find((s) => s.name === "run predictions")!;
    expect(run.parentSpanId).toBe(request.spanId);
    expect(attr(run, "switchyard.flow.id")).toBe(agentId);
    expect(attr(run, "session.id")).toBe(answer.json.sessionId);

    const chains = trace.filter((s) => s.name.startsWith("chain "));
    expect(chains.length).toBeGreaterThan(0);
    expect(chains.some((c) => c.parentSpanId === run.spanId)).toBe(true);

    const models = trace.filter((s) => attr(s, "gen_ai.operation.name") === "chat");
    expect(models.length).toBeGreaterThanOrEqual(2);
    for (const m of models) {
      expect(ancestors(m)).toContain(run);
      expect(attr(m, "gen_ai.request.model")).toBe("stub-model");
      expect(attr(m, "gen_ai.provider.name")).toBe("openai");
      // The model's own request to the provider sits under its call.
      const request = trace.find((s) => s.parentSpanId === m.spanId && s.kind === 3);
      expect(String(attr(request!, "url.full"))).toBe(`${stub.url}/chat/completions`);
    }
    expect(models.some((m) => Number(attr(m, "gen_ai.usage.input_tokens")) > 0)).toBe(true);
    expect(models.some((m) => Number(attr(m, "gen_ai.usage.output_tokens")) > 0)).toBe(true);

    const tool = trace.find((s) => s.name === "execute_tool product_search")!;
    expect(attr(tool, "gen_ai.tool.name")).toBe("product_search");
    expect(ancestors(tool)).toContain(run);
  });

  it("puts the tool's call to the product API under the tool's span", () => {
    const tool = trace.find((s) => s.name === "execute_tool product_search")!;
    const productCall = trace.find(
      (s) => s.kind === 3 && String(attr(s, "url.full")).startsWith(`${productApi.url}/public/ai/v0/products`),
    )!;
    expect(productCall).toBeDefined();
    expect(ancestors(productCall)).toContain(tool);
    expect(ancestors(productCall)[0].name).toBe("chain OpenApiChain");
    expect(attr(productCall, "http.request.method")).toBe("GET");
    expect(String(attr(productCall, "http.response.status_code"))).toBe("200");
    // The query string (where keys may sit) is left out.
    expect(String(attr(productCall, "url.full"))).not.toContain("?");
  });

  it("records the database statements in the same trace (Prisma's db_query spans, and ours of plain SQL)", () => {
    const statements = trace.filter((s) => s.name === "prisma:client:db_query" || s.name === "db_query");
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.some((s) => /INSERT/i.test(String(attr(s, "db.query.text"))))).toBe(true);
  });

  it("gives an agentflow run a span per step, with the step's model calls under it", () => {
    expect(agentflowAnswer.status).toBe(200);
    const traceId = agentflowAnswer.headers.get("traceparent")!.split("-")[1];
    const spans = receiver.spans.filter((s) => s.span.traceId === traceId).map((s) => s.span);
    const run = spans.find((s) => s.name === "run predictions")!;
    expect(attr(run, "switchyard.flow.id")).toBe(researchId);
    const steps = spans.filter((s) => s.name.startsWith("node "));
    const top = steps.filter((s) => s.parentSpanId === run.spanId);
    expect(top.map((s) => attr(s, "switchyard.node.id")).sort()).toEqual(["answer", "plan", "research", "start"]);
    // The Iteration's passes run their steps under the Iteration's own span, one per sub-question.
    const research = top.find((s) => attr(s, "switchyard.node.id") === "research")!;
    const notes = steps.filter((s) => attr(s, "switchyard.node.id") === "note");
    expect(notes).toHaveLength(2);
    for (const note of notes) expect(note.parentSpanId).toBe(research.spanId);
    const plan = steps.find((s) => attr(s, "switchyard.node.id") === "plan")!;
    const planModel = spans.find((s) => s.parentSpanId === plan.spanId && attr(s, "gen_ai.operation.name") === "chat")!;
    expect(Number(attr(planModel, "gen_ai.usage.output_tokens"))).toBeGreaterThan(0);
    expect(spans.some((s) => s.parentSpanId === planModel.spanId && s.kind === 3)).toBe(true);
  });

  it("writes the trace id in the request's log lines", () => {
    const request = log.lines.find((l) => l.msg === "request");
    expect(request).toMatchObject({ traceId: callerTrace, status: 200 });
  });
});

describe("an OTLP endpoint that is down", () => {
  it("costs requests nothing: they succeed, spans are dropped, one warning a minute", async () => {
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await closedPort()}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_TIMEOUT: "300",
    });
    resetEnvForTests();
    expect(await startTracing()).toBe(true);
    const log = captureLog();
    try {
      for (let round = 0; round < 3; round++) {
        const [first, second] = await Promise.all([
          predict("Hello! How are you today?"),
          call(ping.GET as RouteHandler, { path: "/api/v1/ping" }),
        ]);
        expect(first.status).toBe(200);
        expect(second.status).toBe(200);
        expect(first.headers.get("traceparent")).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
        // Handlers route() does not wrap answer with it too.
        expect(second.headers.get("traceparent")).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
        // Each round's spans are sent (and fail) before the next round.
        await flushTracing();
      }
    } finally {
      log.undo();
      await stopTracing();
    }
    const warnings = log.lines.filter((l) => String(l.msg).startsWith("traces: the OTLP endpoint"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: "warn", droppedBatches: 1 });
  });
});
