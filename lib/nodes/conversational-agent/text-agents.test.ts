import { AIMessage, type HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import { paramsSchemaFor } from "@/common/nodes/params";
import { testContext } from "../../flow/__fixtures__/graphs";
import { runEndingChain } from "../../flow/run";
import { bufferMemory } from "../buffer-memory";
import { calculator } from "../calculator";
import { reactAgentChat } from "../react-agent-chat";
import { getDefinition } from "../registry";
import type { RuntimeArgs } from "../runtime-types";
import type { TextAgentChain } from "../shared/text-agent";
import { conversationalAgent } from ".";

// The Conversational Agent and the ReAct Agent for chat models: tools chosen in the model's text
// (no function calling), with our calculator and memory.

const args = (type: string, params: Record<string, unknown>, inputs: Record<string, unknown>): RuntimeArgs => ({
  nodeId: type,
  label: type,
  params: paramsSchemaFor(getDefinition(type)!).parse(params),
  inputs,
  ctx: testContext(),
});

async function agent(type: "conversationalAgent" | "reactAgentChat", model: ReturnType<typeof fakeModel>) {
  const calc = await calculator.runtime(args("calculator", {}, {}));
  const memory = await bufferMemory.runtime(args("bufferMemory", {}, {}));
  const node = type === "conversationalAgent" ? conversationalAgent : reactAgentChat;
  return (await node.runtime(args(type, { maxIterations: 3 }, { model, tools: [calc], memory }))) as TextAgentChain;
}

const history = [
  { role: "userMessage" as const, content: "I am Ada." },
  { role: "apiMessage" as const, content: "Hello Ada." },
];

describe("Conversational Agent", () => {
  it("calls the calculator from a JSON action and answers with the Final Answer", async () => {
    const model = fakeModel()
      .respond(new AIMessage('```json\n{"action": "calculator", "action_input": "12 * (3 + 4)"}\n```'))
      .respond(new AIMessage('```json\n{"action": "Final Answer", "action_input": "Ada, it is 84."}\n```'));
    const result = await runEndingChain(
      await agent("conversationalAgent", model),
      { question: "12*(3+4)?", history },
      false,
    );
    expect(result.text).toBe("Ada, it is 84.");
    expect(result.usedTools).toEqual([
      { tool: "calculator", toolInput: { expression: "12 * (3 + 4)" }, toolOutput: "84" },
    ]);
    const first = model.calls[0].messages;
    expect(first[0].text).toContain("calculator:");
    expect(first.slice(1, 3).map((m) => m.text)).toEqual(["I am Ada.", "Hello Ada."]);
    const second = model.calls[1].messages;
    expect(second.at(-1)?.text).toMatch(/^TOOL RESPONSE:\n-+\n84\n/);
  });

  it("a reply in no format is the answer; an unknown tool is an observation the agent goes on from", async () => {
    const plain = fakeModel().respond(new AIMessage("Hi there!"));
    expect(
      (await runEndingChain(await agent("conversationalAgent", plain), { question: "hi", history: [] }, false)).text,
    ).toBe("Hi there!");
    const wrong = fakeModel()
      .respond(new AIMessage('{"action": "search", "action_input": "news"}'))
      .respond(new AIMessage('{"action": "Final Answer", "action_input": "I cannot search."}'));
    const result = await runEndingChain(
      await agent("conversationalAgent", wrong),
      { question: "news?", history: [] },
      false,
    );
    expect(result.text).toBe("I cannot search.");
    expect(result.usedTools?.[0].toolOutput).toBe('Tool error: there is no tool named "search"; available: calculator');
  });

  it("stops after Max iterations", async () => {
    const model = fakeModel();
    for (let i = 0; i < 3; i++) model.respond(new AIMessage('{"action": "calculator", "action_input": "1+1"}'));
    const result = await runEndingChain(
      await agent("conversationalAgent", model),
      { question: "loop", history: [] },
      false,
    );
    expect(result.text).toMatch(/could not finish/);
    expect(model.calls).toHaveLength(3);
  });
});

describe("ReAct Agent for chat models", () => {
  it("runs Thought / Action / Observation steps and answers with the Final Answer", async () => {
    const model = fakeModel()
      .respond(new AIMessage("Thought: Do I need to use a tool? Yes\nAction: calculator\nAction Input: 2 ^ 10"))
      .respond(new AIMessage("Thought: Do I need to use a tool? No\nFinal Answer: 2^10 is 1024, Ada."));
    const result = await runEndingChain(await agent("reactAgentChat", model), { question: "2^10?", history }, false);
    expect(result.text).toBe("2^10 is 1024, Ada.");
    expect(result.usedTools).toEqual([{ tool: "calculator", toolInput: { expression: "2 ^ 10" }, toolOutput: "1024" }]);
    const first = model.calls[0].messages[0] as HumanMessage;
    expect(first.text).toContain("Human: I am Ada.\nAI: Hello Ada.");
    expect(first.text).toContain("New input: 2^10?");
    const second = model.calls[1].messages[0].text;
    expect(second).toContain("Action Input: 2 ^ 10\nObservation: 1024\nThought:");
  });

  it("a tool's made-up observation is cut: only the real tool output is shown to the model", async () => {
    const model = fakeModel()
      .respond(new AIMessage("Action: calculator\nAction Input: 6*7\nObservation: 41\nFinal Answer: 41"))
      .respond(new AIMessage("Final Answer: 42"));
    const result = await runEndingChain(await agent("reactAgentChat", model), { question: "6*7", history: [] }, false);
    expect(result.text).toBe("42");
    expect(model.calls[1].messages[0].text).toContain("Observation: 42\nThought:");
    expect(model.calls[1].messages[0].text).not.toContain("41");
  });
});
