// The Custom Tool (issue 34): a Tool Agent on the scripted model calls a tool whose JavaScript runs
// in lib/sandbox. Its inputs arrive as $<name> and $input, global variables as $vars; its network
// only through the outbound guard. A tool that throws, loops or allocates fails the call naming the
// limit, and the agent goes on with that observation. Also: Flowise's customTool imports.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { type Brain, textOf } from "../../dev/model-stub/brain";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { createVariable } from "../../lib/services/variables";
import { setupFirstAdmin } from "../../lib/services/users";
import { auth, call } from "../support/http";

let session: Record<string, string>;
let stub: ModelStub;
let page: http.Server;
let pageUrl: string;
const pageHits: string[] = [];

/** Calls the tool once with {city: "Paris"}, then answers with what the tool said. */
const callsToolOnce: Brain = ({ messages }) => {
  const last = messages.at(-1)!;
  if (last.role === "tool") return { content: `Tool said: ${textOf(last.content)}` };
  return { toolCalls: [{ name: "weather", arguments: { city: "Paris" } }] };
};

beforeAll(async () => {
  stub = await createModelStub();
  stub.setBrain(callsToolOnce);
  page = http.createServer((req, res) => {
    pageHits.push(req.url ?? "");
    res
      .writeHead(200, { "content-type": "text/plain" })
      .end(`forecast for ${new URL(req.url ?? "/", "http://x").searchParams.get("city")}: rain`);
  });
  await new Promise<void>((r) => page.listen(0, "127.0.0.1", r));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  Object.assign(process.env, { SANDBOX_TIMEOUT_MS: "1500" });
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
  await createVariable({ name: "unit", value: "celsius", type: "static" });
});
afterAll(() => Promise.all([stub.close(), new Promise((r) => page.close(r))]));

/** Saves a Tool Agent flow on the scripted model with one Custom Tool running `code`. */
async function agentWithTool(code: string): Promise<string> {
  const node = (id: string, type: string, inputs: Record<string, unknown>) => ({
    id,
    type,
    position: { x: 0, y: 0 },
    data: { inputs },
  });
  const edge = (source: string, out: string, target: string, input: string) => ({
    id: `${source}-${target}`,
    source,
    sourceHandle: `${source}:out:${out}`,
    target,
    targetHandle: `${target}:in:${input}`,
  });
  const res = await call(chatflows.POST, {
    method: "POST",
    headers: session,
    body: {
      name: "Custom tool agent",
      graph: {
        nodes: [
          node("model", "chatOpenAICompatible", { model: "stub-model", baseURL: stub.url }),
          node("tool", "customTool", {
            name: "weather",
            description: "The weather of a city",
            schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
            code,
          }),
          node("agent", "toolAgent", {}),
        ],
        edges: [edge("model", "chatModel", "agent", "model"), edge("tool", "tool", "agent", "tools")],
      },
    },
  });
  expect(res.status, res.text.slice(0, 300)).toBe(201);
  return res.json.id;
}

const ask = (id: string) =>
  call(prediction.POST, { method: "POST", params: { id }, headers: session, body: { question: "Weather in Paris?" } });

describe("Custom Tool in the sandbox", () => {
  it("runs the code with $city, $input and $vars; the model answers from its result", async () => {
    const id = await agentWithTool("return 'Weather in ' + $city + ' (' + $input.city + '): sunny, ' + $vars.unit;");
    const res = await ask(id);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.text).toBe("Tool said: Weather in Paris (Paris): sunny, celsius");
    expect(res.json.usedTools).toEqual([
      expect.objectContaining({
        tool: "weather",
        toolInput: { city: "Paris" },
        toolOutput: "Weather in Paris (Paris): sunny, celsius",
      }),
    ]);
  });

  it("fetches through the outbound guard", async () => {
    const id = await agentWithTool(
      `const res = await fetch("${pageUrl}/weather?city=" + $city); return res.status + " " + (await res.text());`,
    );
    const res = await ask(id);
    expect(res.json.text).toBe("Tool said: 200 forecast for Paris: rain");
    expect(pageHits.at(-1)).toBe("/weather?city=Paris");
  });

  it("a private address the operator did not allow is refused to the code; nothing is sent", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { OUTBOUND_ALLOW_PRIVATE: "false", OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${stub.port}` });
    resetEnvForTests();
    try {
      const hits = pageHits.length;
      const id = await agentWithTool(
        `try { await fetch("${pageUrl}/weather"); return "reached"; } catch (e) { return "refused: " + e.message; }`,
      );
      const res = await ask(id);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      expect(res.json.text).toMatch(/^Tool said: refused: .*(private|not allowed)/i);
      expect(pageHits.length).toBe(hits);
    } finally {
      process.env = saved;
      resetEnvForTests();
    }
  });

  it.each([
    ["throws", 'throw new Error("no forecast today");', /failed \(error\): .*no forecast today/],
    ["loops", "while (true) {}", /failed \(timeout\): .*1500 ?ms/],
    ["allocates", 'const a = []; while (true) a.push("x".repeat(1 << 20));', /failed \(memory\): .*64 ?MB/],
  ])("a tool that %s fails the call naming it; the agent goes on", async (_what, code, failure) => {
    const id = await agentWithTool(code);
    const res = await ask(id);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.text).toMatch(/^Tool said: Tool error: Custom tool "weather" \(tool\) /);
    expect(res.json.text).toMatch(failure);
  });
});

describe("Flowise customTool", () => {
  const fwNode = (id: string, name: string, inputs: Record<string, unknown>) => ({
    id,
    type: "customNode",
    position: { x: 0, y: 0 },
    data: { id, name, label: name, inputs },
  });
  const flow = (tool: Record<string, unknown>) => ({
    name: "Flowise custom tool",
    nodes: [
      fwNode("chatOpenAI_0", "chatOpenAI", { modelName: "gpt-4o-mini", basepath: stub.url }),
      fwNode("customTool_0", "customTool", tool),
      fwNode("toolAgent_0", "toolAgent", {
        model: "{{chatOpenAI_0.data.instance}}",
        tools: ["{{customTool_0.data.instance}}"],
      }),
    ],
    edges: [],
  });

  it("imports with its zod schema read as JSON schema and runs in the sandbox", async () => {
    const res = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: flow({
        selectedTool: "3f1c-uuid",
        customToolName: "weather",
        customToolDesc: "The weather of a city",
        customToolSchema: 'z.object({ city: z.string().describe("the city") })',
        customToolFunc: "return 'Cloudy in ' + $city;",
      }),
    });
    expect(res.status, res.text.slice(0, 300)).toBe(201);
    expect(res.json.graph.nodes.find((n: { id: string }) => n.id === "customTool_0").data.inputs.schema).toEqual({
      type: "object",
      properties: { city: { type: "string", description: "the city" } },
      required: ["city"],
    });
    const answer = await ask(res.json.id);
    expect(answer.json.text).toBe("Tool said: Cloudy in Paris");
  });

  it("a tool kept only in Flowise's database (no code on the node) is refused naming why", async () => {
    const res = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: flow({ selectedTool: "3f1c-uuid" }),
    });
    expect(res.status).toBe(400);
    expect(res.json.error.details.droppedInputs).toEqual([
      expect.objectContaining({
        nodeId: "customTool_0",
        input: "selectedTool",
        reason: expect.stringContaining("Flowise's database"),
      }),
    ]);
  });
});

describe("Flowise chatflow Custom JS Function", () => {
  const fwNode = (id: string, name: string, inputs: Record<string, unknown>, output?: string) => ({
    id,
    type: "customNode",
    position: { x: 0, y: 0 },
    data: { id, name, label: name, inputs, ...(output ? { outputs: { output } } : {}) },
  });
  const flow = (code: string) => ({
    name: "Function after a chain",
    nodes: [
      fwNode("chatOpenAI_0", "chatOpenAI", { modelName: "gpt-4o-mini", basepath: stub.url }),
      fwNode("promptTemplate_0", "promptTemplate", { template: "Capital of {country}?" }),
      fwNode(
        "llmChain_0",
        "llmChain",
        { model: "{{chatOpenAI_0.data.instance}}", prompt: "{{promptTemplate_0.data.instance}}" },
        "outputPrediction",
      ),
      fwNode(
        "customFunction_0",
        "customFunction",
        {
          functionInputVariables: '{"answer":"{{llmChain_0.data.instance}}","asked":"{{question}}"}',
          functionName: "shout",
          javascriptFunction: code,
        },
        "EndingNode",
      ),
    ],
    edges: [
      {
        source: "llmChain_0",
        sourceHandle: "llmChain_0-output-outputPrediction-string|json",
        target: "customFunction_0",
        targetHandle: "customFunction_0-input-functionInputVariables-json",
      },
    ],
  });

  it("imports and runs as the ending node, with a chain's answer and the question as its variables", async () => {
    stub.setBrain(() => ({ content: "paris" }));
    try {
      const res = await call(importRoute.POST, {
        method: "POST",
        headers: session,
        body: flow("return $answer.toUpperCase() + ' (' + $asked + ', ' + $vars.unit + ')';"),
      });
      expect(res.status, res.text.slice(0, 300)).toBe(201);
      const fn = res.json.graph.nodes.find((n: { id: string }) => n.id === "customFunction_0");
      expect(fn.data.inputs.inputVariables).toEqual({ answer: "{{llmChain_0}}", asked: "{{question}}" });
      const answer = await ask(res.json.id);
      expect(answer.status, answer.text.slice(0, 300)).toBe(200);
      expect(answer.json.text).toBe("PARIS (Weather in Paris?, celsius)");
    } finally {
      stub.setBrain(callsToolOnce);
    }
  });

  it("code that loops ends the run with 422 naming the node and the limit", async () => {
    stub.setBrain(() => ({ content: "paris" }));
    try {
      const res = await call(importRoute.POST, { method: "POST", headers: session, body: flow("for (;;) {}") });
      const answer = await ask(res.json.id);
      expect(answer.status).toBe(422);
      expect(answer.json.error.code).toBe("sandbox_timeout");
      expect(answer.json.error.message).toContain('Custom JS Function "customFunction" (customFunction_0)');
    } finally {
      stub.setBrain(callsToolOnce);
    }
  });
});
