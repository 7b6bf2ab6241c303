import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { systemCaller } from "../../dev/callers";
import { createModelStub, demoBrain, scriptedBrain, type ModelStub } from "../../dev/model-stub/server";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import { createRecordingServer } from "../support/recording-server";
import { productSearchSpec, SPEC_PRODUCT_API } from "../../dev/product-api/spec";
import { validateGraph } from "../../lib/flow";
import { resetEnvForTests } from "../../lib/env";
import { createCredential } from "../../lib/services/credentials";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";

// Flowise marketplace templates with agents, SQL and toolkits (issue 34), read where they are kept,
// imported through the route, repointed at local servers as a builder would, and run.
const ROOT = path.resolve(import.meta.dirname, "../..");
const MARKETPLACE = path.resolve(ROOT, "../shared/fixtures/flowise/marketplace");
const fixture = (file: string) => JSON.parse(fs.readFileSync(path.join(MARKETPLACE, file), "utf8"));

let session: Record<string, string>;
let stub: ModelStub;
let productApi: ProductApi;

beforeAll(async () => {
  [stub, productApi] = await Promise.all([createModelStub(), createProductApi()]);
  Object.assign(process.env, {
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: stub.url,
    OPENAI_MODEL: "stub-model",
  });
  resetEnvForTests();
  const admin = await setupFirstAdmin({
    email: "owner@example.com",
    name: "Owner",
    password: "owner-pass-1",
  });
  session = await auth.session(admin.id);
});
afterAll(() => Promise.all([stub.close(), productApi.close()]));

const importFlow = (body: unknown) => call(importRoute.POST, { method: "POST", headers: session, body });
const nodeOf = (graph: Graph, id: string) => graph.nodes.find((n) => n.id === id)!;

async function save(id: string, graph: Graph) {
  const saved = await call(chatflowById.PUT, {
    method: "PUT",
    params: { id },
    headers: session,
    body: { graph },
  });
  expect(saved.status, saved.text.slice(0, 300)).toBe(200);
  expect(() => validateGraph(saved.json.graph)).not.toThrow();
}

const predict = (id: string, question: string, sessionId: string) =>
  call(prediction.POST, {
    method: "POST",
    params: { id },
    headers: session,
    body: { question, overrideConfig: { sessionId } },
  });

describe("OpenAPI YAML Agent (toolAgent + bufferMemory + chatAnthropic + openAPIToolkit)", () => {
  let id: string;

  beforeAll(async () => {
    const res = await importFlow({
      name: "OpenAPI agent",
      ...fixture("OpenAPI_YAML_Agent.json"),
    });
    expect(res.status, res.text.slice(0, 500)).toBe(201);
    id = res.json.id;
    const graph = structuredClone(res.json.graph) as Graph;
    expect(graph.nodes.map((n) => [n.id, n.type]).sort()).toEqual([
      ["bufferMemory_0", "bufferMemory"],
      ["chatAnthropic_0", "chatAnthropic"],
      ["openAPIToolkit_0", "openApiToolkit"],
      ["toolAgent_0", "toolAgent"],
    ]);
    expect(graph.edges.map((e) => `${e.sourceHandle} ${e.targetHandle}`)).toContain(
      "openAPIToolkit_0:out:tools toolAgent_0:in:tools",
    );
    expect(String(nodeOf(graph, "toolAgent_0").data.inputs.systemMessage)).toMatch(
      /^You are an agent that can interact with the API/,
    );
    // The template carries no spec (Flowise keeps the upload apart): the builder uploads one, its
    // server (the demo's port) repointed at this test's product API, and a Claude credential whose
    // base URL is the scripted model.
    const cred = await createCredential(
      {
        name: "Claude",
        type: "anthropic",
        data: { apiKey: "k", baseURL: stub.origin },
      },
      systemCaller,
    );
    nodeOf(graph, "chatAnthropic_0").data.inputs.credential = cred.id;
    expect(productSearchSpec).toContain(SPEC_PRODUCT_API);
    nodeOf(graph, "openAPIToolkit_0").data.inputs.spec = productSearchSpec.replace(SPEC_PRODUCT_API, productApi.url);
    await save(id, graph);
  });

  it("the agent calls the spec's operation on the Anthropic wire and answers from the products", async () => {
    const before = {
      api: productApi.requests.length,
      model: stub.requests.length,
    };
    const res = await predict(id, "find me a laptop under 1500 in Germany", "s-openapi");
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const calls = productApi.requests.slice(before.api);
    expect(calls).toHaveLength(1);
    expect(calls[0].query).toMatchObject({
      countryCode: "DE",
      q: "laptop",
      max_price: "1500",
    });
    expect(res.json.usedTools[0]).toMatchObject({ tool: "productsUsingGET" });
    expect(res.json.text).toMatch(/Laptop/);
    const modelCalls = stub.requests.slice(before.model);
    expect(modelCalls.every((r) => r.path === "/v1/messages")).toBe(true);
    expect(modelCalls.length).toBe(2);
  });

  it("remembers the session through the imported Buffer Memory", async () => {
    await predict(id, "Hi, my name is Ada.", "s-ada");
    const again = await predict(id, "What is my name?", "s-ada");
    expect(again.json.text).toContain("Ada");
  });
});

describe("Conversational Agent (calculator, bufferMemory, serpAPI, chatOpenAI, conversationalAgent)", () => {
  type Flow = { nodes: { id: string; data: { inputs: Record<string, unknown> } }[]; edges: { source: string }[] };
  const withoutSerp = () => {
    const flow = fixture("Conversational_Agent.json") as Flow;
    flow.nodes = flow.nodes.filter((n) => n.id !== "serpAPI_0");
    flow.edges = flow.edges.filter((e) => e.source !== "serpAPI_0");
    const agent = flow.nodes.find((n) => n.id === "conversationalAgent_0")!;
    agent.data.inputs.tools = (agent.data.inputs.tools as string[]).filter((t) => !t.includes("serpAPI_0"));
    return flow;
  };

  it("the template as it is imports and runs: SerpAPI (issue 35's node) on a local search server, then the calculator", async () => {
    const search = await createRecordingServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          answer_box: { answer: "Oslo" },
          organic_results: [
            { title: "Oslo - Wikipedia", link: "https://en.wikipedia.org/wiki/Oslo", snippet: "Capital of Norway." },
          ],
        }),
      );
    });
    try {
      const res = await importFlow({ name: "Conversational agent", ...fixture("Conversational_Agent.json") });
      expect(res.status, res.text.slice(0, 300)).toBe(201);
      const graph = structuredClone(res.json.graph) as Graph;
      expect(nodeOf(graph, "serpAPI_0").type).toBe("serpAPI");
      const key = await createCredential(
        { name: "Serp", type: "serpApi", data: { apiKey: "serp-key", baseURL: search.origin } },
        systemCaller,
      );
      nodeOf(graph, "serpAPI_0").data.inputs.credential = key.id;
      nodeOf(graph, "chatOpenAI_0").data.inputs.baseURL = stub.url;
      await save(res.json.id, graph);
      stub.setBrain(
        scriptedBrain([
          { content: '{"action": "search", "action_input": "capital of Norway"}' },
          { content: '{"action": "calculator", "action_input": "2026 - 1048"}' },
          { content: '{"action": "Final Answer", "action_input": "Oslo, founded 978 years ago."}' },
        ]),
      );
      const answer = await predict(
        res.json.id,
        "What is the capital of Norway, and how old is it if founded in 1048?",
        "s-serp",
      );
      expect(answer.status, answer.text.slice(0, 300)).toBe(200);
      expect(answer.json.text).toBe("Oslo, founded 978 years ago.");
      expect(
        answer.json.usedTools.map((t: { tool: string; toolOutput: string }) => [t.tool, t.toolOutput.split("\n")[0]]),
      ).toEqual([
        ["search", "Answer: Oslo"],
        ["calculator", "978"],
      ]);
      expect(search.requests).toHaveLength(1);
      expect(search.requests[0].url).toContain("q=capital+of+Norway");
    } finally {
      stub.setBrain(demoBrain);
      await search.close();
    }
  });

  it("without SerpAPI it imports and runs: the calculator from a JSON action, the session remembered", async () => {
    const res = await importFlow({ name: "Conversational agent (calculator)", ...withoutSerp() });
    expect(res.status, res.text.slice(0, 500)).toBe(201);
    const graph = structuredClone(res.json.graph) as Graph;
    expect(nodeOf(graph, "conversationalAgent_0").type).toBe("conversationalAgent");
    expect(String(nodeOf(graph, "conversationalAgent_0").data.inputs.systemMessage)).toMatch(
      /^Assistant is a large language model/,
    );
    nodeOf(graph, "chatOpenAI_0").data.inputs.baseURL = stub.url;
    await save(res.json.id, graph);

    stub.setBrain(
      scriptedBrain([
        { content: '```json\n{"action": "calculator", "action_input": "(4.5 + 3) * 2"}\n```' },
        { content: '```json\n{"action": "Final Answer", "action_input": "It is 15."}\n```' },
        { content: '{"action": "Final Answer", "action_input": "We computed 15."}' },
      ]),
    );
    const before = stub.requests.length;
    const first = await predict(res.json.id, "What is (4.5 + 3) * 2?", "s-calc");
    expect(first.status, first.text.slice(0, 300)).toBe(200);
    expect(first.json.text).toBe("It is 15.");
    expect(first.json.usedTools).toEqual([
      { tool: "calculator", toolInput: { expression: "(4.5 + 3) * 2" }, toolOutput: "15" },
    ]);
    const again = await predict(res.json.id, "What did we compute?", "s-calc");
    expect(again.json.text).toBe("We computed 15.");
    const last = stub.requests.slice(before).at(-1)!.body as { messages: { content: unknown }[] };
    expect(JSON.stringify(last.messages)).toContain("What is (4.5 + 3) * 2?");
    expect(JSON.stringify(last.messages)).toContain("It is 15.");
    stub.setBrain(demoBrain);
  });
});

describe("SQL DB Chain (chatOpenAI + sqlDatabaseChain) against a throwaway PostgreSQL database", () => {
  const dbName = `sy_sql_chain_${randomBytes(4).toString("hex")}`;
  const admin = { host: "127.0.0.1", port: 5432, user: "postgres" };
  let db: pg.Client;
  let id: string;
  let graph: Graph;

  beforeAll(async () => {
    const root = new pg.Client({ ...admin, database: "postgres" });
    await root.connect();
    await root.query(`CREATE DATABASE ${dbName}`);
    await root.end();
    db = new pg.Client({ ...admin, database: dbName });
    await db.connect();
    await db.query(`CREATE TABLE orders (id int PRIMARY KEY, customer text, total numeric(8,2));
      INSERT INTO orders VALUES (1, 'Ada', 30.00), (2, 'Grace', 12.50), (3, 'Linus', 7.25);
      CREATE TABLE numbers AS SELECT n FROM generate_series(1, 500) AS n;
      CREATE SEQUENCE ticket_seq;`);

    const res = await importFlow({ name: "SQL chain", ...fixture("SQL_DB_Chain.json") });
    expect(res.status, res.text.slice(0, 500)).toBe(201);
    id = res.json.id;
    expect(res.json.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          nodeId: "sqlDatabaseChain_0",
          input: "database",
          message: expect.stringMatching(/SQL database credential/),
        }),
      ]),
    );
    graph = structuredClone(res.json.graph) as Graph;
    expect(nodeOf(graph, "sqlDatabaseChain_0").type).toBe("sqlDatabaseChain");
    const cred = await createCredential(
      {
        name: "Shop DB",
        type: "sqlDatabase",
        data: { host: "127.0.0.1", port: 5432, database: dbName, user: "postgres" },
      },
      systemCaller,
    );
    nodeOf(graph, "chatOpenAI_0").data.inputs.baseURL = stub.url;
    Object.assign(nodeOf(graph, "sqlDatabaseChain_0").data.inputs, {
      credential: cred.id,
      maxRows: 5,
      timeoutSeconds: 1,
    });
    await save(id, graph);
  });
  afterAll(async () => {
    stub.setBrain(demoBrain);
    await db.end();
    const root = new pg.Client({ ...admin, database: "postgres" });
    await root.connect();
    await root.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await root.end();
  });

  const orderCount = async () => Number((await db.query("SELECT count(*) FROM orders")).rows[0].count);
  const ask = async (sql: string, answer?: string) => {
    stub.setBrain(scriptedBrain([{ content: sql }, ...(answer ? [{ content: answer }] : [])]));
    const before = stub.requests.length;
    const res = await predict(id, "Who spent the most?", `s-sql-${randomBytes(3).toString("hex")}`);
    return { res, modelCalls: stub.requests.slice(before) };
  };

  it("the model writes one SELECT from the tables it is shown; it runs and the answer comes from its rows", async () => {
    const { res, modelCalls } = await ask(
      "```sql\nSELECT customer, total FROM orders ORDER BY total DESC LIMIT 1;\n```",
      "Ada spent the most: 30.00.",
    );
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.text).toBe("Ada spent the most: 30.00.");
    expect(res.json.usedTools).toEqual([
      {
        tool: "sql_db_query",
        toolInput: { query: "SELECT customer, total FROM orders ORDER BY total DESC LIMIT 1" },
        toolOutput: '[{"customer":"Ada","total":"30.00"}]',
      },
    ]);
    const prompt = JSON.stringify(modelCalls[0].body);
    expect(prompt).toContain('CREATE TABLE \\"orders\\"');
    expect(prompt).toContain("Grace");
    expect(JSON.stringify(modelCalls[1].body)).toContain('\\"customer\\":\\"Ada\\"');
  });

  it("anything but one SELECT is 422 naming it, and nothing runs", async () => {
    for (const [sql, named] of [
      ["DROP TABLE orders", "it is DROP, not SELECT"],
      ["SELECT 1; DELETE FROM orders", "it holds 2 statements (SELECT, DELETE)"],
      ["UPDATE orders SET total = 0", "it is UPDATE, not SELECT"],
    ]) {
      const { res, modelCalls } = await ask(sql);
      expect(res.status, sql).toBe(422);
      expect(res.json.error.message, sql).toContain(named);
      expect(modelCalls, sql).toHaveLength(1);
    }
    expect(await orderCount()).toBe(3);
    expect((await db.query("SELECT sum(total) AS s FROM orders")).rows[0].s).toBe("49.75");
  });

  it("a SELECT that would write is stopped by the READ ONLY transaction (422)", async () => {
    const { res } = await ask("SELECT nextval('ticket_seq')");
    expect(res.status).toBe(422);
    expect(res.json.error.message).toMatch(/refused a write in the read-only transaction/);
    expect((await db.query("SELECT last_value, is_called FROM ticket_seq")).rows[0]).toMatchObject({
      is_called: false,
    });
  });

  it("reads at most the row cap, and says that more matched", async () => {
    const { res } = await ask("SELECT n FROM numbers ORDER BY n", "There are many numbers.");
    expect(res.status).toBe(200);
    const output = res.json.usedTools[0].toolOutput as string;
    expect(JSON.parse(output.split("\n")[0])).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
    expect(output).toContain("only the first 5 rows are shown; more matched");
  });

  it("a query past the statement timeout is 504 naming the database", async () => {
    const { res } = await ask("SELECT pg_sleep(5)");
    expect(res.status).toBe(504);
    expect(res.json.error.message).toContain(`the database "${dbName}" at 127.0.0.1:5432 did not answer in time`);
  });

  it("a private database host needs the operator's allowance, like every outbound connection", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { OUTBOUND_ALLOW_PRIVATE: "false", OUTBOUND_ALLOW_HOSTS: "" });
    resetEnvForTests();
    try {
      stub.setBrain(scriptedBrain([{ content: "SELECT 1" }]));
      const res = await predict(id, "anything", "s-sql-private");
      expect(res.status).toBe(403);
      expect(res.json.error.message).toMatch(/127\.0\.0\.1.*private.*OUTBOUND_ALLOW_HOSTS/);
    } finally {
      process.env = saved;
      resetEnvForTests();
    }
  });
});
