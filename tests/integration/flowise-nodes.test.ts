// The node types Flowise users bring (issue 13), run through the real prediction route: an agent on
// an Ollama chat model (the OpenAI-wire model stub standing in for Ollama's /v1) using the Calculator.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { systemCaller } from "../../dev/callers";
import { textOf, type Brain } from "../../dev/model-stub/brain";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { edge, node } from "../../lib/flow/__fixtures__/graphs";
import type { Graph } from "../../lib/schemas/graph";
import { createChatflow } from "../../lib/services/chatflows";
import { call } from "../support/http";

let stub: ModelStub;
beforeAll(async () => {
  stub = await createModelStub();
  // Nothing of the server's OpenAI settings may be needed by an Ollama flow.
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
  process.env.OPENAI_MODEL = "unused-model";
  resetEnvForTests();
});
afterAll(() => stub.close());

async function agentFlow(ollama: Record<string, unknown>): Promise<string> {
  const graph = {
    nodes: [
      node("model", "chatOllama", { model: "llama3.2", temperature: 0, ...ollama }, "Local Llama"),
      node("calc", "calculator"),
      node("agent", "toolAgent"),
    ],
    edges: [edge("model", "chatModel", "agent", "model"), edge("calc", "tool", "agent", "tools")],
  } as Graph;
  return (await createChatflow({ name: "ollama agent", graph: graph as never, isPublic: true }, systemCaller)).id;
}

const predict = (id: string, question: string) =>
  call(prediction.POST, { method: "POST", params: { id }, body: { question } });

/** Calls the calculator with each expression in turn, then answers with the last observation. */
function calculatingBrain(expressions: string[]): Brain {
  const queue = [...expressions];
  return ({ messages }) => {
    const last = messages.at(-1);
    const observation = last?.role === "tool" ? textOf(last.content) : "";
    const next = queue.shift();
    if (next !== undefined) return { toolCalls: [{ name: "calculator", arguments: { expression: next } }] };
    return { content: `The total is ${observation}.` };
  };
}

describe("Flowise node types through the prediction route", () => {
  it("an agent on an Ollama model computes with the Calculator tool", async () => {
    stub.requests.length = 0;
    stub.setBrain(calculatingBrain(["(1200 * 0.19) + 15"]));
    const res = await predict(await agentFlow({ baseUrl: stub.origin }), "What is 19% VAT on 1200 plus 15 shipping?");
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.text).toBe("The total is 243.");
    expect(res.json.usedTools).toEqual([
      expect.objectContaining({
        tool: "calculator",
        toolInput: { expression: "(1200 * 0.19) + 15" },
        toolOutput: "243",
      }),
    ]);
    const first = stub.requests[0];
    expect(first.path).toBe("/v1/chat/completions");
    expect(first.body).toMatchObject({
      model: "llama3.2",
      temperature: 0,
      tools: [{ function: { name: "calculator" } }],
    });
  });

  it("a bad expression reaches the agent as a readable error it can correct, not a failed run", async () => {
    stub.setBrain(calculatingBrain(["2 +* 3", "2 * 3"]));
    const res = await predict(await agentFlow({ baseUrl: `${stub.origin}/v1` }), "2 times 3?");
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.text).toBe("The total is 6.");
    expect(res.json.usedTools.map((t: { toolOutput: string }) => t.toolOutput)).toEqual([
      expect.stringMatching(/^Error: Unexpected "\*" at position 4/),
      "6",
    ]);
  });

  it("the outbound guard applies to the Ollama base URL: a private server needs the operator's allowance", async () => {
    process.env.OUTBOUND_ALLOW_PRIVATE = "false";
    process.env.OUTBOUND_ALLOW_HOSTS = "";
    resetEnvForTests();
    try {
      stub.requests.length = 0;
      stub.setBrain(calculatingBrain([]));
      const res = await predict(await agentFlow({ baseUrl: stub.origin }), "hello");
      expect(res.status).toBe(403);
      expect(res.json.error.message).toContain("Local Llama");
      expect(res.json.error.message).toContain(`127.0.0.1:${stub.port}`);
      expect(res.json.error.message).toContain("OUTBOUND_ALLOW_HOSTS");
      expect(stub.requests).toEqual([]);
    } finally {
      process.env.OUTBOUND_ALLOW_PRIVATE = "true";
      resetEnvForTests();
    }
  });
});
