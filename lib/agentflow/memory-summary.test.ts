import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Graph } from "@/common/schemas/graph";
import { type Brain, type ChatMessage, createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { textOf } from "../../dev/model-stub/brain";
import type { HistoryMessage } from "../flow/types";
import { testContext } from "../flow/__fixtures__/graphs";
import { SUMMARY_INSTRUCTION, SUMMARY_PREFIX } from "../nodes/shared/memory-summary";
import { withUsageRecorder } from "../usage/recorder";
import { buildAgentflow } from "./build";
import { type ExecutionSnapshot, runAgentflow } from "./engine";
import { initialPosition, type Position } from "./position";
import { edge, node } from "../../dev/agentflow-graph";

/**
 * Summary memory of the LLM and Agent steps through the engine and the scripted model: the summary
 * call gets the earlier messages, the answering call the summary instead of them, the buffer keeps
 * the newest messages within its token limit, and a summary kept with the run is only extended with
 * what was added since (no call at all when nothing was).
 */

const SUMMARY_USAGE = { prompt_tokens: 40, completion_tokens: 5 };
const ANSWER_USAGE = { prompt_tokens: 30, completion_tokens: 3 };

let stub: ModelStub;
let summaries = 0;

const isSummaryCall = (messages: ChatMessage[]) => textOf(messages[0]?.content) === SUMMARY_INSTRUCTION;
/** Summary calls answer "summary #n"; others "answer". */
const brain: Brain = ({ messages }) =>
  isSummaryCall(messages)
    ? { content: `summary #${++summaries}`, usage: SUMMARY_USAGE }
    : { content: "answer", usage: ANSWER_USAGE };

beforeAll(async () => {
  stub = await createModelStub({ brain });
});
afterAll(() => stub.close());

function graph(type: "llmAgentflow" | "agentAgentflow", memory: Record<string, unknown>): Graph {
  return {
    nodes: [
      node("start", "startAgentflow"),
      node("model", "chatOpenAICompatible", { baseURL: stub.url, model: "stub-model" }),
      node("step", type, memory),
    ],
    edges: [edge("start", "output", "step"), edge("model", "chatModel", "step", "model")],
  };
}

/** One turn: the model calls it made (their messages as "role: text"), its saved position and usage. */
async function turn(g: Graph, question: string, history: HistoryMessage[], carried?: Position["summaries"]) {
  const flow = (await buildAgentflow(g, testContext())).agentflow!;
  const before = stub.requests.length;
  let last: ExecutionSnapshot | undefined;
  const { value, usage } = await withUsageRecorder(() =>
    runAgentflow({
      graph: flow.graph,
      stepOf: flow.stepOf,
      ids: { chatflowId: "cf", chatId: "chat", sessionId: "chat" },
      question,
      history,
      start: {
        state: {},
        position: { ...initialPosition(flow.startId, question), ...(carried ? { summaries: carried } : {}) },
        executedData: [],
      },
      maxSteps: 20,
      save: async (s) => {
        last = structuredClone(s);
      },
      priceUsage: async (models) => models.length * 0.5,
    }),
  );
  const calls = stub.requests
    .slice(before)
    .map((r) => (r.body as { messages: ChatMessage[] }).messages.map((m) => `${m.role}: ${textOf(m.content)}`));
  return { text: value.text, calls, position: last!.position, executedData: value.executedData, usage };
}

const said = (pairs: [string, string][]): HistoryMessage[] =>
  pairs.flatMap(([q, a]) => [
    { role: "userMessage" as const, content: q },
    { role: "apiMessage" as const, content: a },
  ]);

describe("conversation summary memory", () => {
  const earlier = said([
    ["My name is Ada.", "Hello Ada."],
    ["I live in Turin.", "Noted."],
  ]);

  it("summarises the earlier messages with the step's model and answers from the summary", async () => {
    const g = graph("llmAgentflow", { llmMemoryType: "conversationSummary" });
    const first = await turn(g, "Where do I live?", earlier);
    expect(first.calls).toHaveLength(2);
    const [summaryCall, answerCall] = first.calls;
    expect(summaryCall[0]).toBe(`system: ${SUMMARY_INSTRUCTION}`);
    for (const m of earlier) expect(summaryCall[1]).toContain(m.content);
    expect(answerCall).toEqual([`system: ${SUMMARY_PREFIX}summary #${summaries}`, "user: Where do I live?"]);
    expect(first.text).toBe("answer");

    // Both calls are counted: in the run's usage and in the step's own.
    expect(first.usage).toMatchObject({ promptTokens: 70, completionTokens: 8, estimated: false });
    expect(first.executedData.find((e) => e.nodeId === "step")?.data.usage).toEqual({
      promptTokens: 70,
      completionTokens: 8,
      estimated: false,
      models: [{ model: "stub-model", promptTokens: 70, completionTokens: 8 }],
      costUsd: 0.5,
    });

    // The next turn folds only what was added since into the kept summary.
    const kept = first.position.summaries;
    expect(kept?.step?.summary).toBe(`summary #${summaries}`);
    const history = [...earlier, ...said([["Where do I live?", "answer"]])];
    const second = await turn(g, "And my name?", history, kept);
    expect(second.calls).toHaveLength(2);
    expect(second.calls[0][1]).toContain(`Summary so far:\n${kept!.step.summary}`);
    expect(second.calls[0][1]).toContain("User: Where do I live?");
    expect(second.calls[0][1]).not.toContain("Turin");
    expect(second.calls[1][0]).toBe(`system: ${SUMMARY_PREFIX}summary #${summaries}`);

    // Unchanged history (the same turn asked again): the kept summary, no summary call.
    const again = await turn(g, "And my name?", history, second.position.summaries);
    expect(again.calls).toEqual([[`system: ${SUMMARY_PREFIX}summary #${summaries}`, "user: And my name?"]]);
  });

  it("an Agent's summary follows its role messages when they hold a system message", async () => {
    const g = graph("agentAgentflow", {
      agentMemoryType: "conversationSummary",
      agentMessages: [{ role: "system", content: "Be brief." }],
    });
    const { calls } = await turn(g, "Where do I live?", earlier);
    expect(calls).toHaveLength(2);
    expect(isSummaryCall([{ role: "system", content: calls[0][0].slice("system: ".length) }])).toBe(true);
    expect(calls[1]).toEqual([
      "system: Be brief.",
      `user: ${SUMMARY_PREFIX}summary #${summaries}`,
      "user: Where do I live?",
    ]);
  });

  it("no earlier messages: no summary call", async () => {
    const { calls } = await turn(graph("llmAgentflow", { llmMemoryType: "conversationSummary" }), "Hi", []);
    expect(calls).toEqual([["user: Hi"]]);
  });
});

describe("conversation summary buffer memory", () => {
  // 400 characters: 100 tokens each at 4 characters a token; the short ones a few tokens.
  const long = (what: string) => `${what} ${"x".repeat(400)}`;
  const earlier: HistoryMessage[] = [
    { role: "userMessage", content: long("first") },
    { role: "apiMessage", content: long("second") },
    { role: "userMessage", content: "third" },
    { role: "apiMessage", content: "fourth" },
  ];
  const g = () => graph("llmAgentflow", { llmMemoryType: "conversationSummaryBuffer", llmMemoryMaxTokenLimit: 60 });

  it("sends the newest messages within the token limit and a summary of the older ones", async () => {
    const first = await turn(g(), "Next?", earlier);
    expect(first.calls).toHaveLength(2);
    const [summaryCall, answerCall] = first.calls;
    expect(summaryCall[1]).toContain(long("first"));
    expect(summaryCall[1]).toContain(long("second"));
    expect(summaryCall[1]).not.toContain("third");
    expect(answerCall).toEqual([
      `system: ${SUMMARY_PREFIX}summary #${summaries}`,
      "user: third",
      "assistant: fourth",
      "user: Next?",
    ]);

    // Two short messages more still fit: the older part is unchanged, its summary is reused.
    const history = [...earlier, ...said([["Next?", "answer"]])];
    const second = await turn(g(), "Then?", history, first.position.summaries);
    expect(second.calls).toEqual([
      [
        `system: ${SUMMARY_PREFIX}summary #${summaries}`,
        "user: third",
        "assistant: fourth",
        "user: Next?",
        "assistant: answer",
        "user: Then?",
      ],
    ]);
  });

  it("everything within the limit: all messages, no summary call", async () => {
    const short = said([["a", "b"]]);
    const { calls } = await turn(g(), "c", short);
    expect(calls).toEqual([["user: a", "assistant: b", "user: c"]]);
  });
});
