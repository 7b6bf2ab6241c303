import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { getDb } from "../../lib/db/client";
import { createChatflow } from "../../lib/services/chatflows";
import { fixtureKey, systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";
import { auth } from "../support/http";
import { textOf } from "../../dev/model-stub/brain";
import type { ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";
import { serveRoutes } from "../../dev/route-server";

// 200 predictions at once on one session, over real HTTP: every exchange is stored as its own
// question and answer (400 messages), and no answer lands on another request or another question.

const N = 200;
const SESSION = "one-session-for-all";
const question = (i: number) => `Question number ${i}, please.`;
const answerTo = (q: string) => `Answer to: ${q}`;

let stub: ModelStub;
let app: Awaited<ReturnType<typeof serveRoutes>>;
let flowId: string;
let key: string;

beforeAll(async () => {
  // Echoes the newest question, so each answer names the question it belongs to.
  stub = await startServerModelStub(
    {},
    {
      brain: (req) => ({
        content: answerTo(textOf([...req.messages].reverse().find((m) => m.role === "user")?.content)),
      }),
    },
  );
  const flow = exampleFlow("conversation.json");
  flowId = (
    await createChatflow(
      { name: "concurrency", graph: flow.graph as never, overrideAllowList: flow.overrideAllowList },
      systemCaller,
    )
  ).id;
  key = await fixtureKey("predict", ["predict"]);
  app = await serveRoutes([
    { method: "POST", pattern: /^\/api\/v1\/prediction\/(?<id>[^/]+)$/, handler: prediction.POST },
  ]);
});
afterAll(() => Promise.all([stub?.close(), app?.close()]));

async function predict(q: string) {
  const res = await fetch(`${app.url}/api/v1/prediction/${flowId}`, {
    method: "POST",
    headers: { ...auth.bearer(key), "content-type": "application/json" },
    body: JSON.stringify({ question: q, overrideConfig: { sessionId: SESSION } }),
  });
  return { status: res.status, json: (await res.json()) as { text: string; chatMessageId: string; sessionId: string } };
}

describe(`${N} concurrent predictions on one session`, () => {
  it("store 400 messages, each question with its own answer", async () => {
    const questions = Array.from({ length: N }, (_, i) => question(i));
    const results = await Promise.all(questions.map(predict));

    // Every caller got the answer to its own question.
    expect(results.map((r) => r.status)).toEqual(questions.map(() => 200));
    expect(results.map((r) => r.json.text)).toEqual(questions.map(answerTo));
    expect(new Set(results.map((r) => r.json.chatMessageId)).size).toBe(N);

    // The model saw each question exactly once.
    const asked = stub.requests
      .filter((r) => r.path.endsWith("/chat/completions"))
      .map((r) =>
        textOf(
          (r.body as { messages: { role: string; content: string }[] }).messages.findLast((m) => m.role === "user")
            ?.content,
        ),
      );
    expect(asked.sort()).toEqual([...questions].sort());

    const rows = await (await getDb()).chatMessage.findMany({ where: { chatflowId: flowId, sessionId: SESSION } });
    expect(rows).toHaveLength(2 * N);
    const users = rows.filter((r) => r.role === "userMessage");
    const answers = rows.filter((r) => r.role === "apiMessage");
    expect(users.map((r) => r.content).sort()).toEqual([...questions].sort());
    expect(answers.map((r) => r.content).sort()).toEqual(questions.map(answerTo).sort());

    // Each stored answer is the one its caller was told about, and comes after its question.
    const byId = new Map(answers.map((r) => [r.id, r]));
    const userByQuestion = new Map(users.map((r) => [r.content, r]));
    results.forEach((r, i) => {
      const stored = byId.get(r.json.chatMessageId);
      expect(stored?.content).toBe(answerTo(questions[i]));
      const asked = userByQuestion.get(questions[i])!;
      expect(asked.chatId).toBe(stored!.chatId);
      expect(asked.createdAt.getTime()).toBeLessThanOrEqual(stored!.createdAt.getTime());
    });
  }, 120_000);
});
