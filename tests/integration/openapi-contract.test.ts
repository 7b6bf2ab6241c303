import fs from "node:fs";
import path from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { waitFor } from "../queue/support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { DOCUMENTED_ROUTES } from "../../app/api/v1/openapi.json/documented-routes";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { exampleFlow } from "../../dev/flows";
import { freePort } from "../../dev/redis-server";
import { resetEnvForTests } from "../../lib/env";
import { METHOD_REFUSAL } from "../../lib/http/methods";
import { openApiDocument } from "../../lib/openapi/document";
import { operationsOf, type Operation } from "../../lib/openapi/declared";
import { NOT_INDEXED } from "../../lib/openapi/route-index";
import { redisConnections } from "../../lib/redis";
import type { FeedbackRecord, LeadRecord } from "@/common/schemas/feedback";
import {
  type feedbackResponseSchema,
  importUnmappedResponseSchema,
  type leadResponseSchema,
  type queueViewResponseSchema,
  type uploadsConfigResponseSchema,
} from "@/common/schemas/responses";
import type { UploadsConfig } from "../../lib/services/public-chatbot";
import type { QueueView } from "../../lib/services/queue-view";
import { forgetProcessState } from "../../lib/state";
import { loadApiRoutes, type AppRoute } from "../../dev/route-server";
import { multiStoreGraph } from "../support/docs-flows";
import { chatflowTestRunQueue } from "../../lib/services/chatflow-tests/runs";
import { auth, call } from "../support/http";
import { createMcpTestServer } from "../support/mcp-test-server";

// Issue 13: the OpenAPI document (lib/openapi) is checked against the code both ways.
// 1. Every route file × exported method is in the document. The document is made from the routes'
//    own declarations (route() handlers carry them: lib/http/route-options.ts), so it names the very
//    policy and schemas each route validates with.
// 2. Every documented operation is called on its real handler (PGlite, a model stub on 127.0.0.1),
//    and the status and body are validated against the document's response schema for that
//    status, with a JSON Schema validator (Ajv, draft 2020-12 as OpenAPI 3.1 uses), and against the
//    zod schema the document was made from.

type Doc = ReturnType<typeof openApiDocument>;
type JsonSchema = Record<string, unknown>;
type Handler = Parameters<typeof call>[0];
type DocumentedQueueView = z.infer<typeof queueViewResponseSchema>;
/** `true` only when each type is assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// The documented answers and the services' own types agree both ways (tsc fails here otherwise).
void ([true, true, true, true] satisfies [
  Same<QueueView, DocumentedQueueView>,
  Same<UploadsConfig, z.infer<typeof uploadsConfigResponseSchema>>,
  Same<FeedbackRecord, z.infer<typeof feedbackResponseSchema>>,
  Same<LeadRecord, z.infer<typeof leadResponseSchema>>,
]);

/** Methods every route has without documenting them: HEAD (from GET) and CORS preflights. */
const IMPLICIT_METHODS = new Set(["HEAD", "OPTIONS"]);

const doc: Doc = openApiDocument(DOCUMENTED_ROUTES);
const OPERATIONS = operationsOf(DOCUMENTED_ROUTES);
const ajv = new Ajv2020({ strict: false, allErrors: true });
// The formats our zod schemas emit (Ajv ships none; ajv-formats is not installed).
ajv.addFormat("date-time", (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s));
ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
ajv.addFormat("email", /^[^\s@]+@[^\s@]+$/);
ajv.addFormat("uri", (s: string) => URL.canParse(s));
ajv.addFormat("binary", () => true);

/** The document's operation object for an entry of OPERATIONS. */
function documented(op: Operation): {
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
} {
  const item = doc.paths?.[op.path] as Record<string, ReturnType<typeof documented>> | undefined;
  const operation = item?.[op.method];
  if (!operation) throw new Error(`${op.method} ${op.path} is not in the document`);
  return operation;
}

/** A `$ref` to a component schema resolved (one level), anything else as it is. */
function resolved(schema: JsonSchema | undefined): JsonSchema | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== "string") return schema;
  const schemas = (doc.components?.schemas ?? {}) as Record<string, JsonSchema>;
  return schemas[ref.replace("#/components/schemas/", "")];
}

const validators = new Map<string, ValidateFunction>();

/** The document's JSON schema for an operation's answer with this status (components inlined by $ref). */
function responseValidator(op: Operation, status: number): ValidateFunction | null {
  const key = `${op.method} ${op.path} ${status}`;
  const cachedValidator = validators.get(key);
  if (cachedValidator) return cachedValidator;
  const response = documented(op).responses[String(status)];
  if (!response) return null;
  const schema = response.content?.["application/json"]?.schema ?? {};
  const validate = ajv.compile({ ...schema, components: doc.components });
  validators.set(key, validate);
  return validate;
}

/** Asserts an answer is documented for its status and matches the document's schema (and the zod one). */
function expectDocumented(op: Operation, res: { status: number; json: unknown; text: string }) {
  const what = `${op.method.toUpperCase()} ${op.path} → ${res.status}: ${res.text.slice(0, 300)}`;
  const validate = responseValidator(op, res.status);
  expect(validate, `${what}: status not in the document`).not.toBeNull();
  if (res.status === 204 || (res.text === "" && !op.docs.responses[res.status]?.schema)) return;
  expect(validate!(res.json), `${what}\n${ajv.errorsText(validate!.errors)}`).toBe(true);
  const zod = op.docs.responses[res.status]?.schema;
  if (zod) expect(zod.safeParse(res.json).error, what).toBeUndefined();
}

let routes: AppRoute[];
const handlerOf = (op: Operation): Handler => {
  const routeFile = DOCUMENTED_ROUTES.find((r) => r.file === op.file);
  if (!routeFile) throw new Error(`${op.file}: no such route file`);
  return routeFile.module[op.method.toUpperCase()] as Handler;
};

describe("the OpenAPI document covers every route", () => {
  beforeAll(async () => {
    routes = await loadApiRoutes();
  });

  it("documents every route file × method under app/api, and nothing else", () => {
    const implemented = new Set<string>();
    for (const r of routes) {
      if (NOT_INDEXED[r.file] && !r.file.endsWith("openapi.json/route.ts")) continue;
      for (const m of r.methods) {
        if (IMPLICIT_METHODS.has(m) || (r.module[m] as Record<symbol, unknown>)[METHOD_REFUSAL]) continue;
        implemented.add(`${m} ${r.file}`);
      }
    }
    // app/domains/route.ts (outside app/api) serves GET /domains with the handler of GET /api/v1/domains.
    implemented.add("GET app/domains/route.ts");
    const documented = new Set(OPERATIONS.map((o) => `${o.method.toUpperCase()} ${o.file}`));
    expect(
      [...implemented].filter((k) => !documented.has(k)),
      "routes the document lacks",
    ).toEqual([]);
    expect(
      [...documented].filter((k) => !implemented.has(k)),
      "documented operations without a route",
    ).toEqual([]);
    const keys = OPERATIONS.map((o) => `${o.method} ${o.path}`);
    expect(keys.length).toBe(new Set(keys).size);
  });

  it("gives every operation a summary, a description and a described tag, and the document servers", () => {
    for (const op of OPERATIONS) {
      expect(op.docs.summary.length, op.path).toBeGreaterThan(5);
      expect(op.docs.description.length, op.path).toBeGreaterThan(10);
    }
    const tags = (doc.tags ?? []).map((t) => [t.name, Boolean(t.description)]);
    expect(tags.map(([name]) => name).sort()).toEqual([...new Set(OPERATIONS.map((o) => o.docs.tag))].sort());
    expect(tags.every(([, described]) => described)).toBe(true);
    expect(doc.servers?.length).toBeGreaterThan(0);
  });

  it("documents the error shape on every operation, and success answers", () => {
    for (const op of OPERATIONS) {
      const { responses } = documented(op);
      expect(Object.keys(responses), op.path).toContain("500");
      expect(Object.keys(responses).some((s) => s.startsWith("2"))).toBe(true);
      for (const status of Object.keys(responses).filter((s) => Number(s) >= 400)) {
        // The error shape itself (maybe among alternatives), or a richer body (op.errorBodies, e.g.
        // readiness's 503) whose `error` is exactly the error shape's.
        const schema = resolved(responses[status].content?.["application/json"]?.schema);
        const errorShape = resolved({ $ref: "#/components/schemas/Error" }) ?? {};
        const errorProperty = (errorShape.properties as JsonSchema).error;
        const carriesError =
          JSON.stringify(schema).includes('"#/components/schemas/Error"') ||
          JSON.stringify((schema?.properties as JsonSchema | undefined)?.error) === JSON.stringify(errorProperty);
        expect(carriesError, `${op.path} ${status}: ${JSON.stringify(schema)}`).toBe(true);
      }
    }
  });
});

describe("every documented operation answers as documented", () => {
  let stub: ModelStub;
  let admin: Record<string, string>;
  let adminId: string;
  const ids: Record<string, string> = {};
  const covered = new Set<string>();
  const UNKNOWN = "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b";
  /** A well-formed value of a path parameter that names nothing: a UUID, or a version number for `{n}`. */
  const unknownParam = (placeholder: string) => (placeholder === "{n}" ? "1" : UNKNOWN);
  /** A valid query for operations whose query has required fields (else it answers 400 before any permission check). */
  const REQUIRED_QUERY: Record<string, string> = {
    "/api/v1/get-upload-file": `?${new URLSearchParams({ chatflowId: UNKNOWN, chatId: "c", fileName: "f.png" })}`,
  };

  const op = (method: Operation["method"], p: string) => {
    const found = OPERATIONS.find((o) => o.method === method && o.path === p);
    if (!found) throw new Error(`${method} ${p} is not documented`);
    return found;
  };

  /** Calls an operation's real handler and checks the answer against the document. */
  async function run(
    method: Operation["method"],
    p: string,
    opts: { params?: Record<string, string>; body?: unknown; headers?: Record<string, string>; query?: string } = {},
  ) {
    const operation = op(method, p);
    const url = p.replace(/\{(\w+)\}/g, (_, k) => opts.params?.[k] ?? "") + (opts.query ?? "");
    const res = await call(handlerOf(operation), {
      method: method.toUpperCase(),
      path: url,
      params: opts.params,
      body: opts.body,
      headers: { origin: "http://127.0.0.1:3000", ...(opts.headers ?? admin) },
    });
    expectDocumented(operation, res);
    if (res.status < 300) covered.add(`${method} ${p}`);
    return res;
  }

  beforeAll(async () => {
    routes ??= await loadApiRoutes();
    stub = await createModelStub();
    Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
    resetEnvForTests();
    // Setup answers before any user exists.
    expect((await run("get", "/api/v1/setup", { headers: {} })).json).toEqual({ needsSetup: true });
    const created = await run("post", "/api/v1/setup", {
      headers: {},
      body: { email: "admin@contract.test", name: "Admin", password: "admin-pass-123" },
    });
    expect(created.status).toBe(201);
    adminId = created.json.id;
    admin = await auth.session(adminId, "admin@contract.test");
  });
  afterAll(() => stub?.close());

  it("health, setup and this document", async () => {
    await run("get", "/api/v1/ping", { headers: {} });
    const alive = await run("get", "/api/v1/health", { headers: {} });
    expect(alive.json).toMatchObject({ status: "ok", mode: "embedded" });
    // Embedded mode: ready with the database check alone.
    const ready = await run("get", "/api/v1/health/ready", { headers: {} });
    expect(ready.status, ready.text).toBe(200);
    expect(Object.keys(ready.json.checks)).toEqual(["database"]);
    const self = await run("get", "/api/v1/openapi.json", { headers: {} });
    expect(self.json.openapi).toBe("3.1.0");
    // Served through openRoute like /health: a request id on the answer (and a log line).
    expect(self.headers.get("x-request-id")).toBeTruthy();
    expect(
      (
        await run("post", "/api/v1/setup", {
          headers: {},
          body: { email: "b@c.test", name: "x", password: "another-pass-1" },
        })
      ).status,
    ).toBe(409);
  });

  it("chatflows, validation, nodes", async () => {
    const flow = await run("post", "/api/v1/chatflows", {
      body: { name: "Docs", graph: multiStoreGraph({ chatUrl: stub.url }), isPublic: true },
    });
    expect(flow.status).toBe(201);
    ids.flow = flow.json.id;
    await run("get", "/api/v1/chatflows");
    await run("get", "/api/v1/chatflows/{id}", { params: { id: ids.flow } });
    await run("put", "/api/v1/chatflows/{id}", { params: { id: ids.flow }, body: { description: "edited" } });
    await run("get", "/api/v1/chatflows/{id}/validate", { params: { id: ids.flow } });
    await run("put", "/api/v1/chatflows/{id}", {
      params: { id: ids.flow },
      // A run setting makes a version (chatbot settings apply at once and make none).
      body: { overrideAllowList: [], chatbotConfig: { title: "Docs bot" }, versionMessage: "No overrides" },
    });
    await run("get", "/api/v1/chatflows/{id}/versions", { params: { id: ids.flow } });
    await run("get", "/api/v1/chatflows/{id}/versions/{n}", { params: { id: ids.flow, n: "1" } });
    await run("get", "/api/v1/chatflows/{id}/versions/{n}/diff", {
      params: { id: ids.flow, n: "2" },
      query: "?against=1",
    });
    await run("post", "/api/v1/chatflows/{id}/publish", { params: { id: ids.flow }, body: { version: 2 } });
    await run("post", "/api/v1/chatflows/{id}/versions/{n}/restore", { params: { id: ids.flow, n: "1" }, body: {} });
    await run("get", "/api/v1/nodes");
    // A param's options loaded from the server the node connects to: a local MCP server's tools.
    const mcp = await createMcpTestServer();
    try {
      const options = await run("post", "/api/v1/nodes/{name}/options", {
        params: { name: "mcpTools" },
        body: { input: "tools", params: { serverUrl: `${mcp.origin}/mcp` } },
      });
      expect(options.json.options.map((o: { name: string }) => o.name)).toEqual(["get_forecast", "get_alerts"]);
    } finally {
      await mcp.close();
    }
    const flowise = (file: string) =>
      JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../../shared/fixtures/flowise", file), "utf8"));
    const imported = await run("post", "/api/v1/chatflows/import", {
      body: { name: "Imported", ...flowise("conversation.json") },
    });
    expect(imported.status, imported.text).toBe(201);
    expect(Array.isArray(imported.json.warnings)).toBe(true);
    // The documented 400 import_unmapped, with its details' documented shape: the exported conversation
    // with its model swapped for a Flowise node type we have no mapping of.
    const unmappable = flowise("conversation.json");
    unmappable.nodes[0].data.name = "aNodeTypeFlowiseAddsNextYear";
    const refused = await run("post", "/api/v1/chatflows/import", { body: unmappable });
    expect(refused.status, refused.text).toBe(400);
    expect(importUnmappedResponseSchema.safeParse(refused.json).error, refused.text).toBeUndefined();
    const doomed = await run("post", "/api/v1/chatflows", { body: { name: "Doomed" } });
    await run("delete", "/api/v1/chatflows/{id}", { params: { id: doomed.json.id } });
  });

  it("prediction, streaming check, widget config, upsert and stores", async () => {
    await run("get", "/api/v1/chatflows-streaming/{id}", { params: { id: ids.flow }, headers: {} });
    await run("get", "/api/v1/public-chatbotConfig/{id}", { params: { id: ids.flow }, headers: {} });
    const upsert = await run("post", "/api/v1/vector/upsert/{id}", {
      params: { id: ids.flow },
      body: { stopNodeId: "keywordStore" },
    });
    // A JSON upsert without files loads nothing, as documented: counts are all there.
    expect(upsert.status, upsert.text).toBe(200);
    await run("get", "/api/v1/vector/stores/{id}", { params: { id: ids.flow } });
    await run("delete", "/api/v1/vector/stores/{id}/{nodeId}", { params: { id: ids.flow, nodeId: "keywordStore" } });
    const answer = await run("post", "/api/v1/prediction/{id}", {
      params: { id: ids.flow },
      body: { question: "Hi?" },
    });
    expect(answer.status, answer.text).toBe(200);
    // Flowise's multipart form, as documented: JSON values as text.
    const form = new FormData();
    form.set("question", "Hi from a form?");
    form.set("history", JSON.stringify([{ role: "userMessage", content: "Earlier" }]));
    form.set("streaming", "false");
    const formAnswer = await run("post", "/api/v1/prediction/{id}", { params: { id: ids.flow }, body: form });
    expect(formAnswer.status, formAnswer.text).toBe(200);
    const multipart = (documented(op("post", "/api/v1/prediction/{id}")) as { requestBody?: unknown }).requestBody;
    expect(JSON.stringify(multipart)).toContain("multipart/form-data");
    // The streamed answer is the documented event stream.
    const stream = await call(handlerOf(op("post", "/api/v1/prediction/{id}")), {
      method: "POST",
      path: `/api/v1/prediction/${ids.flow}`,
      params: { id: ids.flow },
      body: { question: "Hi?", streaming: true },
      headers: admin,
    });
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(Object.keys(documented(op("post", "/api/v1/prediction/{id}")).responses["200"].content ?? {})).toContain(
      "text/event-stream",
    );
    expect(stream.text).toContain('"event":"end"');
  });

  it("the OpenAI-compatible routes: models, chat completions and responses, whole and streamed", async () => {
    const models = await run("get", "/api/v1/openai/models");
    expect(models.json.data.some((m: { id: string }) => m.id === ids.flow)).toBe(true);
    const messages = [{ role: "user", content: "Hi?" }];
    const completion = await run("post", "/api/v1/openai/chat/completions", { body: { model: ids.flow, messages } });
    expect(completion.status, completion.text).toBe(200);
    const response = await run("post", "/api/v1/openai/responses", { body: { model: ids.flow, input: "Hi?" } });
    expect(response.status, response.text).toBe(200);
    // Streamed: OpenAI's chunks end in [DONE]; the Responses API's events end with response.completed.
    const chunks = await call(handlerOf(op("post", "/api/v1/openai/chat/completions")), {
      method: "POST",
      path: "/api/v1/openai/chat/completions",
      body: { model: ids.flow, messages, stream: true },
      headers: admin,
    });
    expect(chunks.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(chunks.text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    const events = await call(handlerOf(op("post", "/api/v1/openai/responses")), {
      method: "POST",
      path: "/api/v1/openai/responses",
      body: { model: ids.flow, input: "Hi?", stream: true },
      headers: admin,
    });
    expect(events.text).toContain("event: response.completed");
  });

  it("the widget's routes: uploads check, a form upload served back, feedback and leads", async () => {
    const flow = await run("post", "/api/v1/chatflows", {
      body: {
        name: "Widget",
        graph: exampleFlow("conversation.json", { allowImages: true }).graph,
        isPublic: true,
        allowedOrigins: ["http://127.0.0.1:3000"],
        chatbotConfig: { chatFeedback: { status: true }, leads: { status: true, name: true, email: true } },
      },
    });
    expect(flow.status, flow.text).toBe(201);
    const id = flow.json.id as string;
    const uploads = await run("get", "/api/v1/chatflows-uploads/{id}", { params: { id }, headers: {} });
    expect(uploads.json.isImageUploadAllowed).toBe(true);
    // A multipart prediction with a file in `files`, as documented.
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      "base64",
    );
    const form = new FormData();
    form.set("question", "What is this?");
    form.set("chatId", "docs-chat");
    form.append("files", new Blob([png], { type: "image/png" }), "shot.png");
    const answer = await run("post", "/api/v1/prediction/{id}", { params: { id }, body: form });
    expect(answer.status, answer.text).toBe(200);
    const file = await run("get", "/api/v1/get-upload-file", {
      headers: {},
      query: `?${new URLSearchParams({ chatflowId: id, chatId: "docs-chat", fileName: "shot.png" })}`,
    });
    expect(file.status, file.text).toBe(200);
    // Its media type is among the documented ones.
    const media = Object.keys(documented(op("get", "/api/v1/get-upload-file")).responses["200"].content ?? {});
    expect(media).toContain(`${file.headers.get("content-type")?.split("/")[0]}/*`);

    const rating = { chatId: "docs-chat", messageId: answer.json.chatMessageId, rating: "THUMBS_UP" };
    const feedback = await run("post", "/api/v1/feedback", { headers: {}, body: { chatflowid: id, ...rating } });
    expect(feedback.status, feedback.text).toBe(200);
    await run("post", "/api/v1/feedback/{id}", { params: { id }, headers: {}, body: rating });
    await run("put", "/api/v1/feedback/{id}", {
      params: { id: feedback.json.id },
      headers: {},
      body: { content: "Clear answer" },
    });
    const listed = await run("get", "/api/v1/feedback/{id}", { params: { id }, query: "?sortOrder=DESC" });
    expect(listed.json).toHaveLength(1);
    const lead = await run("post", "/api/v1/leads", {
      headers: {},
      body: { chatflowid: id, chatId: "docs-chat", name: "Ada", email: "ada@example.com" },
    });
    expect(lead.status, lead.text).toBe(200);
    await run("get", "/api/v1/leads/{id}", { params: { id } });
  });

  it("messages and conversations", async () => {
    const messages = await run("get", "/api/v1/chatmessage/{id}", { params: { id: ids.flow } });
    // The documented header is there.
    expect(Object.keys(documented(op("get", "/api/v1/chatmessage/{id}")).responses["200"]).join()).toContain("headers");
    expect(Number(messages.headers.get("x-total-count"))).toBeGreaterThanOrEqual(messages.json.length);
    await run("get", "/api/v1/chatmessage/{id}/sessions", { params: { id: ids.flow } });
    await run("delete", "/api/v1/chatmessage/{id}", { params: { id: ids.flow } });
  });

  it("credentials, API keys and users", async () => {
    const cred = await run("post", "/api/v1/credentials", {
      body: { name: "OpenAI", type: "openai", data: { apiKey: "sk-contract", baseURL: "http://127.0.0.1:1/v1" } },
    });
    await run("get", "/api/v1/credentials");
    await run("put", "/api/v1/credentials/{id}", { params: { id: cred.json.id }, body: { name: "Renamed" } });
    // The connection test answers 200 whatever the provider says (here: no provider reachable).
    const tested = await run("post", "/api/v1/credentials/{id}/test", { params: { id: cred.json.id } });
    expect(typeof tested.json.ok).toBe("boolean");
    await run("delete", "/api/v1/credentials/{id}", { params: { id: cred.json.id } });
    const key = await run("post", "/api/v1/apikey", { body: { name: "contract", permissions: ["chatflows"] } });
    await run("get", "/api/v1/apikey");
    // The key's caller kind gets the same documented shapes.
    await run("get", "/api/v1/chatflows", { headers: auth.bearer(key.json.key) });
    await run("delete", "/api/v1/apikey/{id}", { params: { id: key.json.id } });
    const user = await run("post", "/api/v1/users", {
      body: { email: "builder@contract.test", name: "Builder", password: "builder-pass-1" },
    });
    await run("get", "/api/v1/users");
    await run("put", "/api/v1/users/{id}", { params: { id: user.json.id }, body: { role: "admin" } });
    await run("delete", "/api/v1/users/{id}", { params: { id: user.json.id } });
  });

  it("the admin queue view (embedded mode)", async () => {
    const view = await run("get", "/api/v1/admin/queue");
    expect(view.status, view.text).toBe(200);
    expect(view.json.mode).toBe("embedded");
    // The documented schema and the service's type agree both ways (tsc checks these assignments).
    const asService: QueueView = view.json as DocumentedQueueView;
    const asDocumented: DocumentedQueueView = asService;
    expect(asDocumented.workers).toEqual([]);
  });

  // Queue mode needs PostgreSQL (TEST_PG_URL): PGlite belongs to one process.
  it.runIf(process.env.TEST_PG_URL)(
    "readiness's 503: the checks and the error shape, as documented",
    {
      timeout: 20_000,
    },
    async () => {
      // Queue mode with nothing listening at the Redis address: database ok, Redis and workers fail.
      const url = `redis://127.0.0.1:${await freePort()}`;
      Object.assign(process.env, { MODE: "queue", REDIS_URL: url });
      resetEnvForTests();
      try {
        const res = await run("get", "/api/v1/health/ready", { headers: {} });
        expect(res.status, res.text).toBe(503);
        expect(res.json).toMatchObject({ status: "unavailable", mode: "queue", error: { code: "not_ready" } });
        expect(res.json.checks.database.ok).toBe(true);
        expect(res.json.checks.redis.ok).toBe(false);
      } finally {
        const { command, subscriber } = redisConnections(url);
        command.disconnect();
        subscriber.disconnect();
        forgetProcessState("redis");
        process.env.MODE = "embedded";
        delete process.env.REDIS_URL;
        resetEnvForTests();
      }
    },
  );

  it("domains and analysis runs", async () => {
    await run("post", "/api/v1/domains", { body: { names: ["example.com", "not a domain", "example.com"] } });
    const list = await run("get", "/api/v1/domains", { query: "?limit=5&sort=name" });
    await run("get", "/domains", { query: "?isValid=true" });
    await run("post", "/api/v1/domains/analyze", {
      body: { chatflowId: ids.flow, filter: { searchTerm: "no-such-domain-at-all" } },
    });
    const started = await run("post", "/api/v1/domains/analyze", {
      body: { chatflowId: ids.flow, ids: [list.json.data[0].id] },
    });
    expect(started.status, started.text).toBe(202);
    await run("get", "/api/v1/domains/runs");
    await run("get", "/api/v1/domains/runs/{id}", { params: { id: started.json.run.id } });
  });

  it("chatflow test cases and runs", async () => {
    const testCase = {
      name: "Greets",
      question: "hello",
      expectations: [
        { type: "status", value: 200 },
        { type: "answerMatches", pattern: "\\w+", flags: "i" },
      ],
    };
    const params = { id: ids.flow };
    const created = await run("post", "/api/v1/chatflows/{id}/tests", { params, body: testCase });
    expect(created.status, created.text).toBe(201);
    await run("get", "/api/v1/chatflows/{id}/tests", { params });
    const caseParams = { id: ids.flow, caseId: created.json.id };
    await run("put", "/api/v1/chatflows/{id}/tests/{caseId}", { params: caseParams, body: { ...testCase, name: "G" } });
    const started = await run("post", "/api/v1/chatflows/{id}/tests/run", { params, body: {} });
    expect(started.status, started.text).toBe(202);
    await chatflowTestRunQueue().drained();
    const done = await run("get", "/api/v1/chatflows/{id}/tests/runs/{runId}", {
      params: { id: ids.flow, runId: started.json.runId },
    });
    expect(done.json.results).toHaveLength(1);
    await run("get", "/api/v1/chatflows/{id}/tests/runs", { params, query: "?version=1" });
    await run("delete", "/api/v1/chatflows/{id}/tests/{caseId}", { params: caseParams });
  });

  it("global variables: create, list, update and delete", async () => {
    const made = await run("post", "/api/v1/variables", { body: { name: "contract_var", value: "v1" } });
    expect(made.status, made.text).toBe(201);
    await run("get", "/api/v1/variables");
    const id = made.json.id as string;
    const changed = await run("put", "/api/v1/variables/{id}", { params: { id }, body: { value: "v2" } });
    expect(changed.json.value).toBe("v2");
    const gone = await run("delete", "/api/v1/variables/{id}", { params: { id } });
    expect(gone.status, gone.text).toBeLessThan(300);
  });

  it("usage and model prices: sums per day and model, the price table read and set", async () => {
    const day = await run("get", "/api/v1/usage", { query: `?chatflowId=${ids.flow}&groupBy=day` });
    expect(day.status, day.text).toBe(200);
    const model = await run("get", "/api/v1/usage", { query: "?groupBy=model" });
    expect(model.status, model.text).toBe(200);
    const prices = await run("get", "/api/v1/usage/prices");
    expect(prices.status, prices.text).toBe(200);
    const set = await run("put", "/api/v1/usage/prices", {
      body: { prices: [{ model: "contract-model", inputPerMTok: 1, outputPerMTok: 2 }] },
    });
    expect(set.status, set.text).toBe(200);
  });

  it("agentflow executions: list, one node by node, delete one and many", async () => {
    const step = (id: string, type: string, inputs = {}) => ({ id, type, position: { x: 0, y: 0 }, data: { inputs } });
    const graph = {
      nodes: [step("start", "startAgentflow"), step("reply", "directReplyAgentflow", { directReplyMessage: "ok" })],
      edges: [
        { id: "e", source: "start", sourceHandle: "start:out:output", target: "reply", targetHandle: "reply:in:input" },
      ],
    };
    const flow = await run("post", "/api/v1/chatflows", { body: { name: "Runs", type: "AGENTFLOW", graph } });
    const ask = async () =>
      (await run("post", "/api/v1/prediction/{id}", { params: { id: flow.json.id }, body: { question: "hi" } })).json
        .executionId as string;
    const [first, second, third] = [await ask(), await ask(), await ask()];
    const page = await run("get", "/api/v1/executions", { query: `?agentflowId=${flow.json.id}&limit=2` });
    expect(page.json.data.map((e: { id: string }) => e.id)).toEqual([third, second]);
    await run("get", "/api/v1/executions", { query: `?state=FINISHED&cursor=${page.json.nextCursor}` });
    const one = await run("get", "/api/v1/executions/{id}", { params: { id: first } });
    expect(one.json.executionData.map((n: { nodeId: string }) => n.nodeId)).toEqual(["start", "reply"]);
    await run("delete", "/api/v1/executions/{id}", { params: { id: first } });
    const many = await run("delete", "/api/v1/executions", { body: { executionIds: [second, third] } });
    expect(many.json).toEqual({ success: true, deletedCount: 2 });
  });

  it("a flow's MCP server: settings, token rotation, the Streamable HTTP endpoint, disabling", async () => {
    const params = { id: ids.flow };
    await run("get", "/api/v1/mcp-server/{id}", { params });
    // run() sends the studio's Origin: the endpoint refuses browsers unless the origin is allowed.
    const made = await run("post", "/api/v1/mcp-server/{id}", {
      params,
      body: { toolName: "contract_flow", allowedOrigins: ["http://127.0.0.1:3000"] },
    });
    expect(made.status, made.text).toBe(201);
    await run("put", "/api/v1/mcp-server/{id}", { params, body: { description: "Answers contract questions" } });
    const { token } = (await run("post", "/api/v1/mcp-server/{id}/refresh", { params })).json as { token: string };
    const mcp = (body: unknown) =>
      run("post", "/api/v1/mcp/{chatflowId}", {
        params: { chatflowId: ids.flow },
        headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream" },
        body,
      });
    const init = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "contract", version: "1" } };
    expect((await mcp({ jsonrpc: "2.0", id: 1, method: "initialize", params: init })).status).toBe(200);
    expect((await mcp({ jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
    expect((await mcp({ jsonrpc: "2.0", id: 2, method: "tools/list" })).json.result.tools).toHaveLength(1);
    expect((await mcp({ not: "json-rpc" })).status).toBe(400);
    await run("delete", "/api/v1/mcp-server/{id}", { params });
    expect((await mcp({ jsonrpc: "2.0", id: 3, method: "tools/list" })).status).toBe(404);
  });

  it("webhooks and schedules: settings, a call answered at once and one polled, a schedule's life", async () => {
    const params = { id: ids.flow };
    await run("get", "/api/v1/chatflows/{id}/webhook", { params });
    await run("put", "/api/v1/chatflows/{id}/webhook", { params, body: { enabled: true } });
    const hook = (headers: Record<string, string> = {}) =>
      run("post", "/api/v1/webhook/{id}", { params, headers, body: { question: "hello from a hook" } });
    expect((await hook()).status).toBe(200);
    const accepted = await hook({ prefer: "respond-async" });
    expect(accepted.status, accepted.text).toBe(202);
    const runId = (accepted.json as { runId: string }).runId;
    const poll = () => run("get", "/api/v1/trigger-runs/{id}", { params: { id: runId } });
    await waitFor(async () => (await poll()).json.status !== "running");
    const schedule = await run("post", "/api/v1/schedules", {
      body: { chatflowId: ids.flow, cron: "0 9 * * MON-FRI", timezone: "Europe/Paris", input: { question: "report" } },
    });
    expect(schedule.status, schedule.text).toBe(200);
    const scheduleId = (schedule.json as { id: string }).id;
    await run("get", "/api/v1/schedules");
    await run("get", "/api/v1/schedules/{id}", { params: { id: scheduleId } });
    await run("put", "/api/v1/schedules/{id}", { params: { id: scheduleId }, body: { enabled: false } });
    await run("delete", "/api/v1/schedules/{id}", { params: { id: scheduleId } });
  });

  it("document stores: create, list, read, preview, upsert, refresh, query, update, delete", async () => {
    const graph = {
      nodes: [
        {
          id: "txt",
          type: "textFileLoader",
          position: { x: 0, y: 0 },
          data: { inputs: { file: "Refunds take 14 days." } },
        },
        { id: "store", type: "keywordStore", position: { x: 0, y: 0 }, data: { inputs: {} } },
      ],
      edges: [
        {
          id: "e",
          source: "txt",
          sourceHandle: "txt:out:document",
          target: "store",
          targetHandle: "store:in:document",
        },
      ],
    };
    const created = await run("post", "/api/v1/document-store/store", { body: { name: "contract", graph } });
    expect(created.status, created.text).toBe(201);
    const params = { id: (created.json as { id: string }).id };
    await run("get", "/api/v1/document-store/store");
    await run("get", "/api/v1/document-store/store/{id}", { params });
    await run("post", "/api/v1/document-store/loader/preview", { body: { storeId: params.id } });
    await run("post", "/api/v1/document-store/upsert/{id}", { params });
    await run("post", "/api/v1/document-store/refresh/{id}", { params });
    await run("post", "/api/v1/document-store/vectorstore/query", { body: { storeId: params.id, query: "refunds" } });
    await run("put", "/api/v1/document-store/store/{id}", { params, body: { description: "checked" } });
    await run("delete", "/api/v1/document-store/store/{id}", { params });
  });

  it("errors: bad ids, missing credentials and unknown ids answer documented error shapes", async () => {
    for (const operation of OPERATIONS) {
      if (operation.params) {
        const params = Object.fromEntries(operation.path.match(/\{\w+\}/g)!.map((k) => [k.slice(1, -1), "not-an-id"]));
        const res = await run(operation.method, operation.path, { params, body: operation.body ? {} : undefined });
        expect(res.status, `${operation.path}: ${res.text}`).toBe(400);
        const unknown = Object.fromEntries(
          operation.path.match(/\{\w+\}/g)!.map((k) => [k.slice(1, -1), unknownParam(k)]),
        );
        if (!unknown.nodeId && operation.body === undefined) {
          const missing = await run(operation.method, operation.path, { params: unknown });
          expect([404, 200], `${operation.path}: ${missing.text}`).toContain(missing.status);
        }
      }
      if (operation.auth !== "public" && !operation.auth.anonymous) {
        const params = Object.fromEntries(
          (operation.path.match(/\{\w+\}/g) ?? []).map((k) => [k.slice(1, -1), unknownParam(k)]),
        );
        const res = await run(operation.method, operation.path, {
          params,
          headers: {},
          body: operation.body ? {} : undefined,
        });
        expect(res.status, `${operation.path}: ${res.text}`).toBe(401);
      }
    }
  });

  it("errors: a key without the needed permission gets the documented 403", async () => {
    const domainsKey = (
      await run("post", "/api/v1/apikey", { body: { name: "domains only", permissions: ["domains"] } })
    ).json.key;
    for (const operation of OPERATIONS) {
      if (operation.auth === "public" || operation.auth.apiKey === "domains" || !operation.auth.session) continue;
      const params = Object.fromEntries(
        (operation.path.match(/\{\w+\}/g) ?? []).map((k) => [k.slice(1, -1), unknownParam(k)]),
      );
      const res = await run(operation.method, operation.path, {
        params,
        headers: auth.bearer(domainsKey),
        body: operation.body ? {} : undefined,
        query: REQUIRED_QUERY[operation.path],
      });
      expect(res.status, `${operation.method} ${operation.path}: ${res.text}`).toBe(403);
    }
  });

  it("called every documented operation successfully", () => {
    const all = OPERATIONS.map((o) => `${o.method} ${o.path}`);
    expect(all.filter((k) => !covered.has(k))).toEqual([]);
  });
});
