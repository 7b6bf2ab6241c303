import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Graph } from "@/common/schemas/graph";
import { type Brain, createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { textOf } from "../../dev/model-stub/brain";
import { resetEnvForTests } from "../env";
import { testContext } from "../flow/__fixtures__/graphs";
import { sandboxPool } from "../sandbox";
import { buildAgentflow } from "./build";
import { type ExecutionSnapshot, runAgentflow } from "./engine";
import { initialPosition } from "./position";

/**
 * The agentflow nodes with side effects through the engine: the Agent's tool calls (counted on a
 * real HTTP server), a run continued from a snapshot taken mid-agent, the Custom Function in the
 * sandbox (each escape and limit a clear node error), and an Iteration's sub-graph.
 */

let stub: ModelStub;
let server: http.Server;
let origin: string;
let hits: string[] = [];

beforeAll(async () => {
  stub = await createModelStub();
  server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ stock: 7, url: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.SANDBOX_TIMEOUT_MS = "1500";
  resetEnvForTests();
});
afterAll(async () => {
  await stub.close();
  await new Promise((resolve) => server.close(resolve));
  await sandboxPool().close();
  delete process.env.SANDBOX_TIMEOUT_MS;
  resetEnvForTests();
});

const node = (id: string, type: string, inputs: Record<string, unknown> = {}, parentNode?: string) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  ...(parentNode ? { parentNode } : {}),
  data: { inputs },
});
const edge = (source: string, output: string, target: string, input = "input") => ({
  id: `${source}-${output}-${target}-${input}`,
  source,
  sourceHandle: `${source}:out:${output}`,
  target,
  targetHandle: `${target}:in:${input}`,
});

/** Calls the offered tool once per user message (asking for the item in it), then answers with what it read. */
const toolBrain: Brain = ({ messages, tools }) => {
  const last = messages.at(-1)!;
  if (last.role === "tool") return { content: `stock says ${textOf(last.content)}` };
  const asked = textOf([...messages].reverse().find((m) => m.role === "user")?.content);
  if (!tools.length) return { content: `plain: ${asked}` };
  return { toolCalls: [{ name: tools[0].name, arguments: { queryParams: { item: asked } } }] };
};

function agentGraph(max = 3): Graph {
  return {
    nodes: [
      node("start", "startAgentflow"),
      node("model", "chatOpenAICompatible", { baseURL: stub.url, model: "stub-model" }),
      node("stock", "requestsGet", { url: `${origin}/stock`, name: "stock_lookup" }),
      node("agent", "agentAgentflow", { agentMaxIterations: max }),
    ],
    edges: [
      edge("start", "output", "agent"),
      edge("model", "chatModel", "agent", "model"),
      edge("stock", "tool", "agent", "tools"),
    ],
  };
}

async function run(
  graph: Graph,
  question: string,
  start?: Pick<ExecutionSnapshot, "state" | "position" | "executedData">,
) {
  const flow = (await buildAgentflow(graph, testContext())).agentflow!;
  const saved: ExecutionSnapshot[] = [];
  const toolStarts: string[] = [];
  const result = await runAgentflow({
    graph: flow.graph,
    stepOf: flow.stepOf,
    ids: { chatflowId: "cf", chatId: "chat-1", sessionId: "s-1" },
    question,
    history: [],
    start: start ?? { state: {}, position: initialPosition(flow.startId, question), executedData: [] },
    maxSteps: 100,
    vars: { greeting: "Hej" },
    save: async (s) => {
      saved.push(structuredClone(s));
    },
    onToolStart: (s) => toolStarts.push(s.tool),
  });
  return { result, saved, toolStarts };
}

describe("Agent", () => {
  it("calls a tool node, answers from it, reports usedTools and records each call in its executed data", async () => {
    stub.setBrain(toolBrain);
    hits = [];
    const { result, toolStarts } = await run(agentGraph(), "umbrella");
    expect(result.text).toBe(`stock says ${JSON.stringify({ stock: 7, url: "/stock?item=umbrella" })}`);
    expect(hits).toEqual(["/stock?item=umbrella"]);
    expect(toolStarts).toEqual(["stock_lookup"]);
    expect(result.usedTools).toEqual([
      {
        tool: "stock_lookup",
        toolInput: { queryParams: { item: "umbrella" } },
        toolOutput: expect.stringContaining('"stock":7'),
      },
    ]);
    const agent = result.executedData.find((e) => e.nodeId === "agent")!;
    // Each call: its start, journaled before it is made, then its result.
    expect(Object.entries(agent.data.calls as object)).toEqual([
      [expect.stringMatching(/^tool:stock_lookup:.*#1:started$/), true],
      [
        expect.stringMatching(/^tool:stock_lookup:.*#1$/),
        { output: expect.stringContaining('"stock":7'), failed: false },
      ],
    ]);
  });

  it("a run continued from a snapshot taken mid-agent (after the tool call) does not call the tool again", async () => {
    stub.setBrain(toolBrain);
    hits = [];
    const first = await run(agentGraph(), "kettle");
    expect(hits).toHaveLength(1);
    // The snapshot saved as the tool call finished, while the agent still ran (as if the process died then).
    const mid = first.saved.filter((s) => s.executedData.at(-1)?.status === "INPROGRESS")[1]!;
    expect(Object.keys(mid.executedData.at(-1)!.data.calls as object)).toHaveLength(2);
    expect(mid.status).toBe("running");
    expect(mid.executedData.at(-1)).toMatchObject({ nodeId: "agent", status: "INPROGRESS" });
    const again = await run(agentGraph(), "kettle", structuredClone(mid));
    expect(hits).toHaveLength(1);
    expect(again.toolStarts).toEqual([]);
    expect(again.result.text).toBe(first.result.text);
    expect(again.result.executedData.map((e) => [e.nodeId, e.status])).toEqual([
      ["start", "FINISHED"],
      ["agent", "FINISHED"],
    ]);
  });

  it("a run continued from a snapshot taken while the tool call was out fails naming it, and does not call it again", async () => {
    stub.setBrain(toolBrain);
    hits = [];
    const first = await run(agentGraph(), "kettle");
    // The snapshot saved as the call started: it may or may not have reached the tool when the process died.
    const sent = first.saved.find((s) => s.executedData.at(-1)?.status === "INPROGRESS")!;
    expect(Object.keys(sent.executedData.at(-1)!.data.calls as object)).toEqual([expect.stringMatching(/:started$/)]);
    const err = await run(agentGraph(), "kettle", structuredClone(sent)).catch((e: unknown) => e);
    expect(err).toMatchObject({
      status: 409,
      message: expect.stringContaining(
        "its call of tool stock_lookup had started when the server running this run stopped",
      ),
    });
    expect(hits).toHaveLength(1);
  });

  it("an agent still calling tools after Max tool rounds fails naming the limit", async () => {
    stub.setBrain(({ tools }) => ({
      toolCalls: [{ name: tools[0].name, arguments: { queryParams: { n: String(Math.random()) } } }],
    }));
    const err = await run(agentGraph(2), "loop").catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 422, message: expect.stringContaining("after 2 rounds (Max tool rounds)") });
  });
});

function functionGraph(code: string): Graph {
  return {
    nodes: [
      node("start", "startAgentflow", { startState: [{ key: "count", value: "2" }] }),
      node("fn", "customFunctionAgentflow", {
        customFunctionInputVariables: [{ variableName: "city", variableValue: "{{question}}" }],
        customFunctionJavascriptFunction: code,
        customFunctionUpdateState: [{ key: "count", value: "{{output}}" }],
      }),
    ],
    edges: [edge("start", "output", "fn")],
  };
}

describe("Custom Function", () => {
  it("runs in the sandbox with $input, $flow, $vars and named variables; its result is the output", async () => {
    const code =
      "return [$vars.greeting, $city, $input, $flow.chatId, $flow.chatflowId, $flow.sessionId, $flow.state.count].join(' ')";
    const { result } = await run(functionGraph(code), "Oslo");
    expect(result.executedData.at(-1)!.data.output).toMatchObject({ content: "Hej Oslo Oslo chat-1 cf s-1 2" });
    expect(result.state).toEqual({ count: "Hej Oslo Oslo chat-1 cf s-1 2" });
  });

  it.each([
    ["process", "return process.env", "sandbox_error", /'process' is not defined/],
    ["require", "return require('fs')", "sandbox_error", /'require' is not defined/],
    ["import()", "return await import('fs')", "sandbox_error", /./],
    ["fetch", "return await fetch('http://example.com')", "sandbox_error", /'fetch' is not defined/],
    ["an endless loop", "while (true) {}", "sandbox_timeout", /1500 ms/],
    ["a 1 GB allocation", "const a = new Uint8Array(1024 * 1024 * 1024); return a.length", "sandbox_memory", /MB/],
  ])("%s ends the node with a clear error naming the limit", async (_, code, errorCode, message) => {
    const err = await run(functionGraph(code), "x").catch((e: unknown) => e);
    expect(err).toMatchObject({ code: errorCode, status: 422 });
    expect((err as Error).message).toMatch(/^Custom Function "Custom Function" \(fn\): /);
    expect((err as Error).message).toMatch(message);
  });
});

describe("Iteration", () => {
  it("runs its sub-graph once per item ({{$iteration}}), at most the concurrency at once, outputs in item order", async () => {
    const graph: Graph = {
      nodes: [
        node("start", "startAgentflow"),
        node("loop", "iterationAgentflow", {
          iterationInput: '[{"q":"a"},{"q":"b"},{"q":"c"}]',
          iterationConcurrency: 2,
          iterationOutputStructure: "jsonArray",
        }),
        node("each", "directReplyAgentflow", { directReplyMessage: "item {{$iteration.q}} of {{question}}" }, "loop"),
        node("after", "directReplyAgentflow", { directReplyMessage: "all: {{loop}}" }),
      ],
      edges: [edge("start", "output", "loop"), edge("loop", "output", "after")],
    };
    const { result } = await run(graph, "Q");
    expect(result.text).toBe('all: ["item a of Q","item b of Q","item c of Q"]');
    expect(result.executedData.map((e) => e.nodeId)).toEqual(["start", "loop", "after"]);
  });

  it("refuses {{$iteration}} outside an Iteration at save", async () => {
    const graph: Graph = {
      nodes: [
        node("start", "startAgentflow"),
        node("r", "directReplyAgentflow", { directReplyMessage: "{{$iteration}}" }),
      ],
      edges: [edge("start", "output", "r")],
    };
    await expect(buildAgentflow(graph, testContext())).rejects.toMatchObject({
      details: [expect.objectContaining({ code: "unknown_variable", nodeId: "r" })],
    });
  });
});
