import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import { type Brain, type ChatMessage, createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { textOf } from "../../dev/model-stub/brain";
import { fixtureKey, systemCaller } from "../../dev/callers";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as executionById from "../../app/api/v1/executions/[id]/route";
import { createChatflow } from "../../lib/services/chatflows";
import { SUMMARY_INSTRUCTION, SUMMARY_PREFIX } from "../../lib/nodes/shared/memory-summary";
import { edge, node } from "../../dev/agentflow-graph";

/**
 * Summary memory across a chat's turns through the prediction route (issue 32 point 2): each turn is
 * a new run, which starts with the summaries the chat's last run kept (Execution.position.summaries),
 * so the older messages are summarised once; the summary call is counted in the answer's usage and
 * in its node's usage in the Executions API.
 */

const SUMMARY_USAGE = { prompt_tokens: 40, completion_tokens: 5 };
const ANSWER_USAGE = { prompt_tokens: 30, completion_tokens: 3 };

let stub: ModelStub;
let key: string;
let flowId: string;

const isSummaryCall = (messages: ChatMessage[]) => textOf(messages[0]?.content) === SUMMARY_INSTRUCTION;
const brain: Brain = ({ messages }) =>
  isSummaryCall(messages)
    ? { content: "Ada asked a long question.", usage: SUMMARY_USAGE }
    : { content: "answer", usage: ANSWER_USAGE };

beforeAll(async () => {
  stub = await createModelStub({ brain });
  // Predictions, and reading the runs (the chatflows permission).
  key = await fixtureKey("summary", ["predict", "chatflows"]);
  const graph = {
    nodes: [
      node("start", "startAgentflow"),
      node("model", "chatOpenAICompatible", { baseURL: stub.url, model: "stub-model" }),
      // 60 tokens: the long first question (over 100) goes into the summary, short messages stay.
      node("reply", "llmAgentflow", { llmMemoryType: "conversationSummaryBuffer", llmMemoryMaxTokenLimit: 60 }),
    ],
    edges: [edge("start", "output", "reply"), edge("model", "chatModel", "reply", "model")],
  };
  flowId = (await createChatflow({ name: "Summary", type: "AGENTFLOW", graph: graph as never }, systemCaller)).id;
});
afterAll(() => stub.close());

/** One turn of chat "c1": its answer and the model calls it made (messages as "role: text"). */
async function ask(question: string) {
  const before = stub.requests.length;
  const res = await call(prediction.POST, {
    method: "POST",
    params: { id: flowId },
    headers: auth.bearer(key),
    body: { question, chatId: "c1" },
  });
  expect(res.status, res.text).toBe(200);
  const calls = stub.requests
    .slice(before)
    .map((r) => (r.body as { messages: ChatMessage[] }).messages.map((m) => `${m.role}: ${textOf(m.content)}`));
  return { json: res.json, calls };
}

describe("summary buffer memory across turns", () => {
  const long = `My order ${"x".repeat(400)}`;

  it("summarises the older messages once, and the next turn reuses the summary", async () => {
    const first = await ask(long);
    expect(first.calls).toEqual([[`user: ${long}`]]);

    const second = await ask("Where is it?");
    expect(second.calls).toHaveLength(2);
    expect(second.calls[0][1]).toContain(long);
    const summary = `system: ${SUMMARY_PREFIX}Ada asked a long question.`;
    expect(second.calls[1]).toEqual([summary, "assistant: answer", "user: Where is it?"]);
    // The summary call is part of the answer's usage, and of its node's in the Executions API.
    expect(second.json.usage).toMatchObject({ promptTokens: 70, completionTokens: 8 });
    const run = await call(executionById.GET, {
      params: { id: second.json.executionId },
      headers: auth.bearer(key),
    });
    expect(run.status, run.text).toBe(200);
    const reply = run.json.executionData.find((n: { nodeId: string }) => n.nodeId === "reply");
    expect(reply.usage).toMatchObject({ promptTokens: 70, completionTokens: 8 });
    expect(run.json.usage).toMatchObject({ promptTokens: 70, completionTokens: 8, answers: 1 });

    // A new run of the same chat: the older part is unchanged, so no summary call.
    const third = await ask("When?");
    expect(third.calls).toEqual([
      [summary, "assistant: answer", "user: Where is it?", "assistant: answer", "user: When?"],
    ]);
    expect(third.json.usage).toMatchObject({ promptTokens: 30, completionTokens: 3 });
  });
});
