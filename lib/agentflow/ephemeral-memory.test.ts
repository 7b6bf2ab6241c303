import { describe, expect, it } from "vitest";
import type { Graph } from "@/common/schemas/graph";
import { testContext } from "../flow/__fixtures__/graphs";
import { buildAgentflow } from "./build";
import { runAgentflow } from "./engine";
import { initialPosition } from "./position";

// The Start step's ephemeral memory (Flowise's startEphemeralMemory): each run starts without the
// conversation's earlier messages.
const graph = (ephemeralMemory: boolean): Graph => ({
  nodes: [
    { id: "start", type: "startAgentflow", position: { x: 0, y: 0 }, data: { inputs: { ephemeralMemory } } },
    {
      id: "reply",
      type: "directReplyAgentflow",
      position: { x: 0, y: 0 },
      data: { inputs: { directReplyMessage: "history: [{{chat_history}}]" } },
    },
  ],
  edges: [
    {
      id: "e",
      source: "start",
      sourceHandle: "start:out:output",
      target: "reply",
      targetHandle: "reply:in:input",
    },
  ],
});

async function answer(ephemeralMemory: boolean) {
  const flow = (await buildAgentflow(graph(ephemeralMemory), testContext())).agentflow!;
  const result = await runAgentflow({
    graph: flow.graph,
    stepOf: flow.stepOf,
    ids: { chatflowId: "cf", chatId: "chat-1", sessionId: "s-1" },
    question: "Again?",
    history: [
      { role: "userMessage", content: "Hello" },
      { role: "apiMessage", content: "Hi" },
    ],
    start: { state: {}, position: initialPosition(flow.startId, "Again?"), executedData: [] },
    maxSteps: 50,
    save: async () => {},
  });
  return result.text;
}

describe("agentflow Start: ephemeral memory", () => {
  it("leaves the conversation's earlier messages out of the run; off, steps see them", async () => {
    expect(await answer(false)).toBe("history: [user: Hello\nassistant: Hi]");
    expect(await answer(true)).toBe("history: []");
  });
});
