import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCUMENTED_ROUTES } from "../../app/api/v1/openapi.json/documented-routes";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { pathOfRouteFile } from "../../lib/openapi/declared";
import { chatflowTestRunQueue } from "../../lib/services/chatflow-tests/runs";
import { domainAnalysisQueue } from "../../lib/services/domains-analysis";
import { multiStoreGraph } from "../support/docs-flows";
import { auth, call, type RouteHandler } from "../support/http";
import { type Document, type DocumentedOperation, documentFuzzer, seededRandom } from "../support/openapi-fuzz";

// Issue 31, point 4: a contract fuzz of the served OpenAPI document. For every operation, requests
// drawn from the document's own schemas (json-schema-faker, seeded) go to the real handlers on PGlite,
// as an admin (and now and then with no credentials). Every answer must be documented: no 5xx, no
// schema-valid request refused with 400 (the schema and the server agree), its status listed, its
// JSON (and each streamed event) valid against the documented schema (Ajv).
// OPENAPI_FUZZ_RUNS rounds over every operation (default 5: about 300 requests), OPENAPI_FUZZ_SEED
// (default 31; "random" picks one and prints it so a failing run can be replayed).

const RUNS = Number(process.env.OPENAPI_FUZZ_RUNS ?? 5);
const SEED =
  process.env.OPENAPI_FUZZ_SEED === "random"
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.OPENAPI_FUZZ_SEED ?? 31);
const ORIGIN = "http://127.0.0.1:3000";

/**
 * 400s that depend on stored data or compare two values, which no JSON schema can say: the only
 * refusals of schema-valid requests allowed, each with why. Anything else refused is a finding.
 */
const BEYOND_A_SCHEMA: { message: RegExp; why: string }[] = [
  {
    message: /does not match (the chatflow|feedback)/,
    why: "ids echoed in the body must name the path's chatflow or the stored feedback",
  },
  { message: /does not exist|do not exist/, why: "a user or chatflow the body names must exist" },
  { message: /is not a vector store of this chatflow/, why: "stopNodeId names a store node of the chatflow's graph" },
  { message: /has no version before it/, why: "version 1 has no version before it to compare with" },
  { message: /not enabled in this chatflow/, why: "uploads follow the chatflow's own settings" },
  { message: /only an agentflow pauses for human input/, why: "humanInput answers agentflows, a stored flow's type" },
  {
    message: /Unknown fields? in Data|is required\. Unknown fields?/,
    why: "new credential values are of the stored credential's kind",
  },
  { message: /is not a node type of ours/, why: "node types are the server's registry (GET /api/v1/nodes)" },
  { message: /can never be overridden per request/, why: "the registry's params that choose where requests go" },
  { message: /cannot read the server's environment/, why: "the server's VARIABLES_FROM_ENV setting" },
  {
    message: /start date must not be after the end date/,
    why: "a rule across two query parameters (OpenAPI has none)",
  },
  { message: /cannot be combined with/, why: "a rule across two query parameters (OpenAPI has none)" },
  { message: /cannot be combined with cursor/, why: "a rule across two query parameters (OpenAPI has none)" },
  { message: /must be the JSON text of a Flowise graph/, why: "flowData's contentSchema is an annotation" },
  {
    message: /^Import (refused|stopped)|cannot be imported/i,
    why: "import_unmapped: nodes we cannot map (documented)",
  },
  {
    message: /send rotateSecret or removeSecret, not both/,
    why: "a rule across two body fields (JSON schema has none here)",
  },
  {
    message: /from and to must be at most 366 days apart|must be before `to`/,
    why: "a rule across two query parameters (OpenAPI has none)",
  },
  { message: /give name, description or graph/, why: "an update names at least one field (a rule across fields)" },
  {
    message: /Idempotency-Key needs a caller of its own/,
    why: "who sends it decides: an anonymous caller has no stored answers to replay",
  },
  {
    message: /Idempotency-Key cannot be used with/,
    why: "a rule across a header and a body field: a streamed answer is not stored to be replayed",
  },
  { message: /give a question or form fields/, why: "one of two fields must be given (a rule across fields)" },
  { message: /is not an IANA time zone/, why: "time zones are the server's tz database, which no schema lists" },
  {
    message: /is not a cron expression this server reads/,
    why: "cron syntax is read by cron-parser, not a JSON schema",
  },
  {
    message: /the last message must be the user's|items of type .* are not supported|the user's message is empty/,
    why: "OpenAI-compatible API (issue 33): its schemas are its owner's to tighten",
  },
];

/** Deleting these would take the fixtures away from the rest of the run: their ids stay random. */
const DESTRUCTIVE = /^delete \/api\/v1\/(chatflows|credentials|apikey|users)\//;

let stub: ModelStub;
let admin: Record<string, string>;
/** Ids of things that exist, by the path parameter they fill (see fixtureParams). */
const ids: Record<string, string> = {};

async function send(path: string, method: string, opts: Parameters<typeof call>[1] = {}) {
  const file = DOCUMENTED_ROUTES.find((r) => pathOfRouteFile(r.file) === path);
  const handler = file?.module[method.toUpperCase()] as RouteHandler | undefined;
  if (!handler) throw new Error(`${method} ${path}: no handler`);
  const url = path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(opts.params?.[k] ?? ""));
  return call(handler, { method: method.toUpperCase(), ...opts, path: `${url}${opts.path ?? ""}` });
}

/** Path parameters naming things that exist (most of the time), so requests get past the lookup. */
function fixtureParams(path: string, method: string, drawn: Record<string, string>, random: () => number) {
  if (random() < 0.2 || DESTRUCTIVE.test(`${method} ${path}`)) return drawn;
  const byPath: [RegExp, string][] = [
    [/^\/api\/v1\/credentials\//, ids.credential],
    [/^\/api\/v1\/apikey\//, ids.key],
    [/^\/api\/v1\/users\//, ids.user],
    [/^\/api\/v1\/domains\/runs\//, ids.analysisRun],
  ];
  const id =
    (method === "put" && path === "/api/v1/feedback/{id}" ? ids.feedback : undefined) ??
    byPath.find(([pattern]) => pattern.test(path))?.[1] ??
    ids.chatflow;
  const known: Record<string, string> = {
    id,
    caseId: ids.testCase,
    runId: ids.testRun,
    n: "1",
    nodeId: "keywordStore",
  };
  return Object.fromEntries(Object.keys(drawn).map((k) => [k, known[k] ?? drawn[k]]));
}

beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const setup = await send("/api/v1/setup", "post", {
    body: { email: "admin@fuzz.test", name: "Admin", password: "admin-pass-123" },
  });
  admin = { ...(await auth.session(setup.json.id, "admin@fuzz.test")), origin: ORIGIN };
  const as = (path: string, method: string, opts: Parameters<typeof call>[1] = {}) =>
    send(path, method, { headers: admin, ...opts });
  const flow = await as("/api/v1/chatflows", "post", {
    body: {
      name: "Fuzzed",
      graph: multiStoreGraph({ chatUrl: stub.url }),
      isPublic: true,
      allowedOrigins: [ORIGIN],
      chatbotConfig: { chatFeedback: { status: true }, leads: { status: true, name: true, email: true } },
    },
  });
  ids.chatflow = flow.json.id;
  const answer = await as("/api/v1/prediction/{id}", "post", {
    params: { id: ids.chatflow },
    body: { question: "Hi?" },
  });
  ids.feedback = (
    await as("/api/v1/feedback", "post", {
      body: {
        chatflowid: ids.chatflow,
        chatId: answer.json.chatId,
        messageId: answer.json.chatMessageId,
        rating: "THUMBS_UP",
      },
    })
  ).json.id;
  ids.credential = (
    await as("/api/v1/credentials", "post", { body: { name: "Key", type: "openai", data: { apiKey: "sk-fuzz" } } })
  ).json.id;
  ids.key = (await as("/api/v1/apikey", "post", { body: { name: "fuzz", permissions: ["chatflows"] } })).json.id;
  ids.user = (
    await as("/api/v1/users", "post", { body: { email: "builder@fuzz.test", name: "B", password: "builder-pass-1" } })
  ).json.id;
  ids.testCase = (
    await as("/api/v1/chatflows/{id}/tests", "post", {
      params: { id: ids.chatflow },
      body: { name: "T", question: "Hi?", expectations: [{ type: "status", value: 200 }] },
    })
  ).json.id;
  ids.testRun = (
    await as("/api/v1/chatflows/{id}/tests/run", "post", { params: { id: ids.chatflow }, body: {} })
  ).json.runId;
  const domains = await as("/api/v1/domains", "post", { body: { names: ["example.com"] } });
  expect(domains.status, domains.text).toBe(200);
  const listed = await as("/api/v1/domains", "get");
  const run = await as("/api/v1/domains/analyze", "post", {
    body: { chatflowId: ids.chatflow, ids: [listed.json.data[0].id] },
  });
  ids.analysisRun = run.json.run.id;
  for (const [name, value] of Object.entries(ids)) expect(value, name).toBeTruthy();
});

afterAll(async () => {
  await chatflowTestRunQueue().drained();
  await domainAnalysisQueue().drained();
  await stub?.close();
});

describe("a contract fuzz of the served OpenAPI document", () => {
  it("answers schema-valid requests as documented: no 5xx, no 400, only documented statuses and shapes", {
    timeout: 600_000,
  }, async () => {
    const served = (await send("/api/v1/openapi.json", "get")).json as Document;
    const fuzz = documentFuzzer(served);
    const random = seededRandom(SEED);
    const findings = new Map<string, { count: number; example: string }>();
    const statuses = new Map<number, number>();
    let sent = 0;
    let undrawn = 0;
    const note = (where: string, problem: string, example: string) => {
      const key = `${where}: ${problem.slice(0, 160)}`;
      const seen = findings.get(key) ?? { count: 0, example };
      findings.set(key, { ...seen, count: seen.count + 1 });
    };
    for (let round = 0; round < RUNS; round++) {
      for (const [path, item] of Object.entries(served.paths)) {
        for (const [method, op] of Object.entries(item) as [string, DocumentedOperation][]) {
          const { request } = fuzz.request(op, random);
          const where = `${method.toUpperCase()} ${path}`;
          // json-schema-faker's draw missed the schema (oneOf, not): nothing to send.
          if (!request) {
            undrawn++;
            continue;
          }
          const params = fixtureParams(path, method, request.params, random);
          const query = new URLSearchParams(request.query).toString();
          const res = await send(path, method, {
            params,
            body: request.body,
            headers: { ...(random() < 0.1 ? {} : admin), ...request.headers },
            path: query ? `?${query}` : "",
          });
          sent++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const example = `${JSON.stringify({ params, query, body: request.body }).slice(0, 400)} → ${res.text.slice(0, 300)}`;
          if (res.status >= 500) note(where, `${res.status}`, example);
          const message = String(res.json?.error?.message ?? "");
          const code = String(res.json?.error?.code ?? "");
          const beyond = code === "import_unmapped" || BEYOND_A_SCHEMA.some((b) => b.message.test(message));
          if (res.status === 400 && !beyond) note(where, `a schema-valid request refused: ${message}`, example);
          const type = res.headers.get("content-type") ?? "";
          const problems = type.startsWith("text/event-stream")
            ? fuzz.eventProblems(op, res.status, res.text)
            : fuzz.problemsOf(op, res.status, type, res.text);
          for (const problem of problems) note(where, problem, example);
        }
      }
    }
    console.log(
      `openapi fuzz: seed ${SEED}, ${RUNS} rounds, ${sent} requests (${undrawn} draws refused by the schema), statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    const report = [...findings].map(([key, { count, example }]) => `${key} (×${count})\n    ${example}`);
    expect(report).toEqual([]);
  });
});
