import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { createModelStub, demoBrain, type ModelStub } from "../../dev/model-stub/server";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import { parse as parseYaml } from "yaml";
import { validateGraph } from "../../lib/flow";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";

// Chatflows exported from a running Flowise 3.1.4 and two of its marketplace templates, read where
// they are kept (never copied into the project).
const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURES = path.resolve(ROOT, "../shared/fixtures/flowise");
type FlowiseJson = {
  nodes: { id: string; data: { inputs: Record<string, unknown>; [k: string]: unknown }; [k: string]: unknown }[];
  edges: Record<string, unknown>[];
  [k: string]: unknown;
};
const fixture = (file: string): FlowiseJson => JSON.parse(fs.readFileSync(path.join(FIXTURES, file), "utf8"));
const inputsOf = (flow: FlowiseJson, id: string) => flow.nodes.find((n) => n.id === id)!.data.inputs;

let session: Record<string, string>;
let stub: ModelStub;
let productApi: ProductApi;

beforeAll(async () => {
  [stub, productApi] = await Promise.all([createModelStub(), createProductApi()]);
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});
afterAll(() => Promise.all([stub.close(), productApi.close()]));

const importFlow = (body: unknown) => call(importRoute.POST, { method: "POST", headers: session, body });
const count = async () => (await getDb()).chatflow.count();
const nodeOf = (graph: Graph, id: string) => graph.nodes.find((n) => n.id === id)!;

describe("Flowise fixtures", () => {
  it("every exported chatflow at the top of the fixtures is covered here", () => {
    expect(
      fs
        .readdirSync(FIXTURES)
        .filter((f) => f.endsWith(".json"))
        .sort(),
    ).toEqual([
      "conversation.json",
      "marketplace-conversation-chain.json",
      "marketplace-prompt-chaining.json",
      "openapi-chain.json",
      "product-search-agent.json",
    ]);
  });

  // Flowise's marketplace templates (marketplace/: chatflows; agentflows/: Agentflow V2), which the
  // agentflow and node-coverage issues bring over: each one is imported, or refused in our error
  // shape naming what stops it (never a 5xx), and a refusal saves nothing.
  it("answers every marketplace template with an import or a refusal that names what stops it", async () => {
    for (const folder of ["marketplace", "agentflows"]) {
      const files = fs.readdirSync(path.join(FIXTURES, folder)).filter((f) => f.endsWith(".json"));
      expect(files.length, folder).toBeGreaterThan(0);
      for (const file of files) {
        const before = await count();
        const res = await importFlow({ name: file.replace(/\.json$/, ""), ...fixture(path.join(folder, file)) });
        const where = `${folder}/${file}: ${res.text.slice(0, 300)}`;
        expect([201, 400, 422], where).toContain(res.status);
        if (res.status !== 201) {
          expect(res.json.error.message.length, where).toBeGreaterThan(20);
          expect(await count(), where).toBe(before);
        }
      }
    }
  });

  it("imports the conversation: types, params, edges and positions mapped; the credential left to connect", async () => {
    const res = await importFlow({ name: "Conversation", ...fixture("conversation.json") });
    expect(res.status).toBe(201);
    const graph = res.json.graph as Graph;
    expect(graph.nodes.map((n) => [n.id, n.type, n.position])).toEqual([
      ["chatOpenAI_0", "chatOpenAICompatible", { x: 400, y: 100 }],
      ["bufferMemory_0", "bufferMemory", { x: 800, y: 100 }],
      ["conversationChain_0", "conversationChain", { x: 1200, y: 100 }],
    ]);
    expect(nodeOf(graph, "chatOpenAI_0").data.inputs).toEqual({
      model: "gpt-4o-mini",
      temperature: 0,
      baseURL: "http://127.0.0.1:4111/v1",
      allowImageUploads: false,
    });
    expect(String(nodeOf(graph, "conversationChain_0").data.inputs.systemMessage)).toMatch(
      /^The following is a friendly conversation between a human and an AI/,
    );
    expect(graph.edges.map((e) => [e.sourceHandle, e.targetHandle])).toEqual([
      ["chatOpenAI_0:out:chatModel", "conversationChain_0:in:model"],
      ["bufferMemory_0:out:memory", "conversationChain_0:in:memory"],
    ]);
    expect(res.json.warnings).toEqual([
      expect.objectContaining({ nodeId: "chatOpenAI_0", kind: "credential", input: "credential" }),
    ]);
    expect(res.json).toMatchObject({ name: "Conversation", isPublic: false, version: 1 });
    expect(() => validateGraph(graph)).not.toThrow();
  });

  it("imports the marketplace conversation chain, saying what was approximated", async () => {
    const res = await importFlow(fixture("marketplace-conversation-chain.json"));
    expect(res.status).toBe(201);
    expect(res.json.name).toBe("Imported Flowise chatflow");
    expect(res.json.description).toMatch(/conversation/i);
    expect(nodeOf(res.json.graph, "chatOpenAI_0").data.inputs).toEqual({
      model: "gpt-3.5-turbo-16k",
      temperature: 0.9,
      allowImageUploads: true,
    });
    expect(res.json.warnings).toEqual([
      expect.objectContaining({ nodeId: "chatOpenAI_0", kind: "approximated", input: "imageResolution" }),
    ]);
    expect(() => validateGraph(res.json.graph)).not.toThrow();
  });

  it("imports the marketplace prompt chaining: the first chain's answer fills the second prompt, the last chain answers", async () => {
    const res = await importFlow(fixture("marketplace-prompt-chaining.json"));
    expect(res.status, res.text.slice(0, 300)).toBe(201);
    const graph = structuredClone(res.json.graph) as Graph;
    expect(nodeOf(graph, "promptTemplate_1").data.inputs.promptValues).toEqual({ result: "{{llmChain_0}}" });
    expect(graph.edges.map((e) => [e.sourceHandle, e.targetHandle])).toContainEqual([
      "llmChain_0:out:prediction",
      "promptTemplate_1:in:chains",
    ]);
    for (const n of graph.nodes) if (n.type === "chatOpenAICompatible") n.data.inputs.baseURL = stub.url;
    const id = res.json.id;
    const saved = await call(chatflowById.PUT, { method: "PUT", params: { id }, headers: session, body: { graph } });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);
    const replies = ["Step 1: list the planets.", '["Find moons", "Compare sizes"]'];
    stub.setBrain(() => ({ content: replies.shift() ?? "no more replies" }));
    const before = stub.requests.length;
    try {
      const run = await call(prediction.POST, {
        method: "POST",
        params: { id },
        headers: session,
        body: { question: "Learn about the solar system" },
      });
      expect(run.status, run.text.slice(0, 300)).toBe(200);
      expect(run.json.text).toBe('["Find moons", "Compare sizes"]');
    } finally {
      stub.setBrain(demoBrain);
    }
    const prompts = stub.requests.slice(before).map((r) => JSON.stringify((r.body as { messages: unknown }).messages));
    expect(prompts).toHaveLength(2);
    expect(prompts[0]).toContain("following objective: Learn about the solar system");
    expect(prompts[1]).toContain("The last completed task has the result: Step 1: list the planets.");
  });

  it("imports the OpenAPI chain with the uploaded spec as its text", async () => {
    const res = await importFlow(fixture("openapi-chain.json"));
    expect(res.status).toBe(201);
    const chain = nodeOf(res.json.graph, "openApiChain_0");
    expect(chain.type).toBe("openApiChain");
    expect(String(chain.data.inputs.spec)).toMatch(/^openapi: 3\.0\.1/);
    const spec = parseYaml(String(chain.data.inputs.spec));
    expect(spec).toMatchObject({ openapi: "3.0.1", servers: [{ url: expect.stringContaining("127.0.0.1:4110") }] });
    expect(() => validateGraph(res.json.graph)).not.toThrow();
  });
});

describe("sticky notes", () => {
  it("become canvas notes with their position and text, kept by later saves", async () => {
    const flow = fixture("conversation.json");
    flow.nodes.push({
      id: "stickyNote_0",
      type: "stickyNote",
      position: { x: 380, y: -120 },
      data: { name: "stickyNote", label: "Sticky Note", inputs: { note: "Model: any OpenAI-compatible server" } },
    });
    const res = await importFlow({ name: "With a note", ...flow });
    expect(res.status).toBe(201);
    const note = { id: "stickyNote_0", position: { x: 380, y: -120 }, text: "Model: any OpenAI-compatible server" };
    expect(res.json.graph.notes).toEqual([note]);
    expect(res.json.graph.nodes.map((n: { id: string }) => n.id)).not.toContain("stickyNote_0");
    expect(() => validateGraph(res.json.graph)).not.toThrow();
    const saved = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: res.json.id },
      headers: session,
      body: { description: "edited", graph: res.json.graph },
    });
    expect(saved.json.graph.notes).toEqual([note]);
  });
});

describe("imported product-search agent", () => {
  let id: string;

  beforeAll(async () => {
    const res = await importFlow({ name: "Imported agent", ...fixture("product-search-agent.json") });
    expect(res.status).toBe(201);
    expect(res.json.warnings.map((w: { nodeId: string; kind: string }) => [w.nodeId, w.kind])).toEqual([
      ["chatOpenAI_1", "credential"],
      ["chatOpenAI_0", "credential"],
    ]);
    id = res.json.id;
    // The fixture points at Flowise's demo ports (model 4111, spec server 4110): repoint the saved
    // flow at this test's model stub and product API, as a builder would in the studio.
    const graph = structuredClone(res.json.graph) as Graph;
    expect(nodeOf(graph, "chatOpenAI_0").data.inputs.baseURL).toBe("http://127.0.0.1:4111/v1");
    for (const n of graph.nodes) {
      if (n.type === "chatOpenAICompatible") n.data.inputs.baseURL = stub.url;
      if (n.type === "openApiChain") n.data.inputs.serverUrl = productApi.url;
    }
    const saved = await call(chatflowById.PUT, { method: "PUT", params: { id }, headers: session, body: { graph } });
    expect(saved.status).toBe(200);
    expect(() => validateGraph(saved.json.graph)).not.toThrow();
  });

  const predict = (question: string, sessionId: string) =>
    call(prediction.POST, {
      method: "POST",
      params: { id },
      headers: session,
      body: { question, overrideConfig: { sessionId } },
    });

  it("answers small talk without calling the API", async () => {
    const before = productApi.requests.length;
    const res = await predict("Hello! How are you today?", "s-hello");
    expect(res.status).toBe(200);
    expect(res.json.text.length).toBeGreaterThan(0);
    expect(res.json.usedTools).toBeUndefined();
    expect(productApi.requests.length).toBe(before);
    expect(res.json.memoryType).toBe("Buffer Memory");
  });

  it("calls the product API like our example and answers from the products", async () => {
    const before = productApi.requests.length;
    const res = await predict("find me a laptop under 1500 in Germany", "s-laptop");
    expect(res.status).toBe(200);
    const calls = productApi.requests.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].query).toMatchObject({ countryCode: "DE", q: "laptop", max_price: "1500" });
    expect(res.json.usedTools[0]).toMatchObject({ tool: "product_search" });
    expect(res.json.text).toMatch(/^I found \d+ products?: .*Laptop \(\d+\.\d\d EUR\)/);
  });

  it("remembers the session through the imported Buffer Memory", async () => {
    await predict("Hi, my name is Ada.", "s-ada");
    const again = await predict("What is my name?", "s-ada");
    expect(again.json.text).toContain("Ada");
  });
});

describe("Flowise API records", () => {
  it("imports `flowData` as a JSON string; Flowise's other fields are never saved", async () => {
    const res = await importFlow({
      id: "f0c3a0e2-0000-4000-8000-000000000000",
      name: "From the Flowise API",
      flowData: JSON.stringify(fixture("conversation.json")),
      deployed: false,
      isPublic: true,
      apikeyid: "abc",
      chatbotConfig: '{"welcomeMessage":"hi"}',
      category: "demo",
      type: "CHATFLOW",
      createdDate: "2026-01-01T00:00:00.000Z",
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: "From the Flowise API", isPublic: false, chatbotConfig: {} });
    expect(res.json.id).not.toBe("f0c3a0e2-0000-4000-8000-000000000000");
    expect(res.json.graph.nodes.map((n: { type: string }) => n.type)).toEqual([
      "chatOpenAICompatible",
      "bufferMemory",
      "conversationChain",
    ]);
    expect(res.json.graph.edges).toHaveLength(2);
  });

  it("reads connections from {{id.data.instance}} values when a record has no edges", async () => {
    const flow = fixture("product-search-agent.json");
    const res = await importFlow({ name: "No edges", flowData: JSON.stringify({ nodes: flow.nodes, edges: [] }) });
    expect(res.status).toBe(201);
    expect(res.json.graph.edges.map((e: { targetHandle: string }) => e.targetHandle).sort()).toEqual([
      "chainTool_0:in:chain",
      "openApiChain_0:in:model",
      "toolAgent_0:in:memory",
      "toolAgent_0:in:model",
      "toolAgent_0:in:tools",
    ]);
  });

  it("refuses flowData that is not JSON, or not a graph, and a body that is neither form", async () => {
    const notJson = await importFlow({ name: "x", flowData: "{nodes:" });
    expect(notJson.status).toBe(400);
    expect(notJson.json.error.message).toContain("body.flowData");
    const notGraph = await importFlow({ name: "x", flowData: JSON.stringify({ nodes: [{ id: "a" }] }) });
    expect(notGraph.status).toBe(400);
    expect(notGraph.json.error.message).toContain("body.flowData.nodes.0.data");
    const deep = await importFlow({ name: "x", flowData: `${"[".repeat(200)}${"]".repeat(200)}` });
    expect(deep.status).toBe(400);
    const neither = await importFlow({ name: "x" });
    expect(neither.status).toBe(400);
    const both = await importFlow({ name: "x", nodes: [], flowData: "{}" });
    expect(both.status).toBe(400);
    // An export without nodes is refused, not saved as an empty flow "with everything carried over".
    const before = await count();
    const empty = await importFlow({ name: "x", nodes: [], edges: [] });
    expect(empty.status).toBe(400);
    expect(empty.json.error.message).toContain("body.nodes: holds no nodes");
    const emptyData = await importFlow({ name: "x", flowData: JSON.stringify({ nodes: [], edges: [] }) });
    expect(emptyData.status).toBe(400);
    expect(emptyData.json.error.message).toContain("body.flowData.nodes: holds no nodes");
    expect(await count()).toBe(before);
  });
});

describe("refusals", () => {
  it("refuses custom code by name and every unmapped node and set input, in one 400; nothing saved", async () => {
    const flow = fixture("product-search-agent.json");
    flow.nodes.push(
      {
        id: "pythonInterpreter_0",
        type: "customNode",
        position: { x: 1200, y: 400 },
        data: {
          name: "pythonInterpreter",
          label: "Python Interpreter",
          inputs: { code: "import os; os.environ" },
        },
      },
      {
        id: "airtableAgent_0",
        type: "customNode",
        position: { x: 0, y: 400 },
        data: { name: "airtableAgent", label: "Airtable Agent", inputs: {} },
      },
    );
    flow.edges.push({
      source: "pythonInterpreter_0",
      sourceHandle: "pythonInterpreter_0-output-pythonInterpreter-PythonInterpreter|Tool",
      target: "toolAgent_0",
      targetHandle: "toolAgent_0-input-tools-Tool",
    });
    (inputsOf(flow, "toolAgent_0").tools as string[]).push("{{pythonInterpreter_0.data.instance}}");
    Object.assign(inputsOf(flow, "chatOpenAI_0"), {
      proxyUrl: "http://proxy.example:8080",
      baseOptions: '{"X-Org":"a"}',
    });
    inputsOf(flow, "bufferMemory_0").sessionId = "fixed";

    const before = await count();
    const res = await importFlow(flow);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("import_unmapped");
    expect(res.json.error.details.unmappedNodes).toEqual([
      {
        nodeId: "pythonInterpreter_0",
        label: "Python Interpreter",
        flowiseType: "pythonInterpreter",
        reason: expect.stringMatching(/runs code.*never imported/),
      },
      {
        nodeId: "airtableAgent_0",
        label: "Airtable Agent",
        flowiseType: "airtableAgent",
        reason: expect.stringContaining("no equivalent"),
      },
    ]);
    expect(
      res.json.error.details.droppedInputs.map((d: { nodeId: string; input: string }) => [d.nodeId, d.input]),
    ).toEqual([
      ["chatOpenAI_0", "baseOptions"],
      ["chatOpenAI_0", "proxyUrl"],
      ["bufferMemory_0", "sessionId"],
    ]);
    expect(res.json.error.message).toContain("Python Interpreter");
    expect(await count()).toBe(before);
  });

  it("refuses a connection from an output we have no equivalent of", async () => {
    const flow = fixture("marketplace-prompt-chaining.json");
    // Without the reference in promptValues, the edge from an LLM chain output we do not have remains.
    inputsOf(flow, "promptTemplate_1").promptValues = '{"objective":"{{question}}"}';
    const edge = flow.edges.find((e) => e.source === "llmChain_0")!;
    edge.sourceHandle = "llmChain_0-output-outputJson-json";
    const res = await importFlow(flow);
    expect(res.status).toBe(400);
    expect(res.json.error.details.droppedInputs).toEqual([
      expect.objectContaining({
        nodeId: "promptTemplate_1",
        input: "promptValues",
        reason: expect.stringContaining("llmChain_0"),
      }),
    ]);
  });
});

describe("POST /api/v1/chatflows with a Flowise graph", () => {
  it("is refused naming the nodes that are not ours and pointing at the import; nothing saved", async () => {
    const before = await count();
    const res = await call(chatflows.POST, {
      method: "POST",
      headers: session,
      body: { name: "Pasted Flowise graph", graph: fixture("conversation.json") },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
    expect(res.json.error.message).toContain('body.graph.nodes.0.type: "customNode" is not a node type of ours');
    expect(res.json.error.message).toContain("/api/v1/chatflows/import");
    expect(await count()).toBe(before);
  });
});

describe("imported URLs and the outbound rules", () => {
  it("an imported model base URL is checked like any saved one: a private host the operator did not allow is refused", async () => {
    const res = await importFlow({ name: "Outbound", ...fixture("conversation.json") });
    expect(res.status).toBe(201);
    const saved = { ...process.env };
    Object.assign(process.env, { OUTBOUND_ALLOW_PRIVATE: "false", OUTBOUND_ALLOW_HOSTS: "" });
    resetEnvForTests();
    try {
      const before = stub.requests.length;
      const refused = await call(prediction.POST, {
        method: "POST",
        params: { id: res.json.id },
        headers: session,
        body: { question: "hello" },
      });
      expect(refused.status).toBe(403);
      expect(refused.json.error.message).toContain("127.0.0.1:4111");
      expect(refused.json.error.message).toContain("OUTBOUND_ALLOW_HOSTS");
      expect(stub.requests.length).toBe(before);
    } finally {
      process.env = saved;
      resetEnvForTests();
    }
  });
});

describe("Flowise Agentflow V2 templates (agentflows/)", () => {
  const AGENTFLOWS = "agentflows";
  const importAgentflow = async (file: string) => {
    const res = await importFlow({ name: file, ...fixture(path.join(AGENTFLOWS, file)) });
    expect(res.status, res.text.slice(0, 400)).toBe(201);
    expect(res.json.type).toBe("AGENTFLOW");
    return res.json as { id: string; graph: Graph; warnings: { nodeId: string; input?: string; kind: string }[] };
  };

  /** Points the imported models at this test's stub, as a builder would in the studio, and saves. */
  async function repoint(flow: { id: string; graph: Graph }, credentials: Record<string, string>) {
    const graph = structuredClone(flow.graph);
    for (const n of graph.nodes) {
      if (n.type === "chatOpenAICompatible") n.data.inputs.baseURL = stub.url;
      if (n.type === "chatOllama") n.data.inputs.baseUrl = stub.origin;
      if (n.type in credentials) n.data.inputs.credential = credentials[n.type];
    }
    const saved = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: flow.id },
      headers: session,
      body: { graph },
    });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);
  }

  const credential = async (type: string) => {
    const { createCredential } = await import("../../lib/services/credentials");
    const { systemCaller } = await import("../../dev/callers");
    return (
      await createCredential(
        { name: type, type: type as never, data: { apiKey: "k", baseURL: stub.origin } },
        systemCaller,
      )
    ).id;
  };

  it("imports all five: every step, its embedded model as our model node, control edges, what to connect said", async () => {
    const hitl = await importAgentflow("Human_In_The_Loop.json");
    expect(nodeOf(hitl.graph, "agentAgentflow_0_model").type).toBe("chatOpenAICompatible");
    expect(hitl.graph.edges.map((e) => `${e.sourceHandle} ${e.targetHandle}`)).toContain(
      "humanInputAgentflow_0:out:reject loopAgentflow_0:in:input",
    );
    expect(nodeOf(hitl.graph, "toolAgentflow_0").data.inputs.toolInputArgs).toEqual([
      { inputArgName: "to", inputArgValue: "{{$form.from}}" },
      { inputArgName: "subject", inputArgValue: "{{llmAgentflow_0.subject}}" },
      { inputArgName: "body", inputArgValue: "{{llmAgentflow_0.body}}" },
    ]);
    // The agent's tools (Google Custom Search, current date/time) are ours now; the Tool step's Gmail is not.
    const agentTools = hitl.graph.edges
      .filter((e) => e.target === "agentAgentflow_0" && e.targetHandle.endsWith(":in:tools"))
      .map((e) => nodeOf(hitl.graph, e.source).type);
    expect(agentTools.sort()).toEqual(["currentDateTime", "googleCustomSearch"]);
    expect(hitl.warnings.map((w) => [w.nodeId, w.input])).toEqual(
      expect.arrayContaining([["toolAgentflow_0", "toolAgentflowSelectedTool"]]),
    );
    const iterations = await importAgentflow("Iterations.json");
    expect(nodeOf(iterations.graph, "llmAgentflow_0")).toMatchObject({
      parentNode: "iterationAgentflow_0",
      data: { inputs: { llmUserMessage: "Reply only:\n{{$iteration.item}}" } },
    });
    expect(nodeOf(iterations.graph, "llmAgentflow_0_model")).toMatchObject({
      type: "chatGoogleGenerativeAI",
      parentNode: "iterationAgentflow_0",
      data: { inputs: { modelName: "gemini-2.0-flash" } },
    });
    const rag = await importAgentflow("Simple_RAG.json");
    expect(rag.warnings.map((w) => w.input)).toContain("agentKnowledgeDocumentStores");
    expect(nodeOf(rag.graph, "stickyNoteAgentflow_0").type).toBe("stickyNoteAgentflow");
    await importAgentflow("Structured_Output.json");
    const supervisor = await importAgentflow("Supervisor_Worker.json");
    expect(nodeOf(supervisor.graph, "llmAgentflow_0").data.inputs.llmUpdateState).toEqual([
      { key: "next", value: "{{output.next}}" },
      { key: "instruction", value: "{{output.instructions}}" },
    ]);
  });

  it("runs Structured Output on the scripted model through our Anthropic node", async () => {
    const flow = await importAgentflow("Structured_Output.json");
    await repoint(flow, { chatAnthropic: await credential("anthropic") });
    stub.setBrain(() => ({ content: '{"output":[{"answer":"4","reason":"2 + 2"}]}' }));
    const before = stub.requests.length;
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id: flow.id },
      headers: session,
      body: { question: "What is 2 + 2?" },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.text).toContain('"answer":"4"');
    expect(stub.requests.slice(before).map((r) => r.path)).toEqual(["/v1/messages"]);
  });

  it("runs Supervisor Worker: the supervisor picks the engineer, loops back, finishes through the Gemini agent", async () => {
    const flow = await importAgentflow("Supervisor_Worker.json");
    await repoint(flow, { chatGoogleGenerativeAI: await credential("googleGenerativeAI") });
    let turns = 0;
    stub.setBrain((req) => {
      if (req.model.startsWith("gemini")) return { content: "Final: the feature, reviewed." };
      const system = textOfSystem(req.messages);
      if (/supervisor/i.test(system)) {
        turns += 1;
        const next = turns === 1 ? "SOFTWARE" : "FINISH";
        return { content: JSON.stringify({ next, instructions: "Build the login form", reasoning: "first the code" }) };
      }
      return { content: "function login() {}" };
    });
    const before = stub.requests.length;
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id: flow.id },
      headers: session,
      body: { question: "Build a login form" },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.text).toBe("Final: the feature, reviewed.");
    expect(stub.requests.slice(before).map((r) => r.path)).toEqual([
      "/v1/chat/completions",
      "/v1/chat/completions",
      "/v1/chat/completions",
      expect.stringMatching(/^\/v1beta\/models\/gemini-[^:]+:(generateContent|streamGenerateContent)$/),
    ]);
  });
});

function textOfSystem(messages: { role: string; content?: unknown }[]): string {
  return messages
    .filter((m) => m.role === "system")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "")))
    .join("\n");
}
