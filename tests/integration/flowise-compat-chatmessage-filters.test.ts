// GET/DELETE /api/v1/chatmessage/{id}: every filter Flowise documents is honoured (chatType,
// order, chatId, memoryType, sessionId, startDate, endDate, messageId, feedback, feedbackType),
// an unknown parameter is a 400 naming it, and a DELETE with a filter removes only what matches.
import { beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import * as messages from "../../app/api/v1/chatmessage/[id]/route";
import { getDb } from "../../lib/db/client";
import { insertExchange } from "../../lib/db/queries/chat-messages";
import { createChatflow } from "../../lib/services/chatflows";
import { setupFirstAdmin } from "../../lib/services/users";
import { systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";

let basic: Record<string, string>;

beforeAll(async () => {
  await setupFirstAdmin({ email: "admin@filters.test", name: "Admin", password: "admin-pass-1" });
  basic = auth.basic("admin@filters.test", "admin-pass-1");
});

type Seeded = { flowId: string; answers: Record<string, string>; questions: Record<string, string> };

/**
 * Five exchanges with known sessions, chats, types, memory and dates; answers of s1 rated up,
 * s2 rated down, the others unrated.
 */
async function seed(): Promise<Seeded> {
  const flowId = (
    await createChatflow({ name: "Filters", graph: exampleFlow("conversation.json").graph as never }, systemCaller)
  ).id;
  const rows = [
    { key: "s1", chatType: "EXTERNAL", memoryType: "Buffer Memory", day: "2025-03-01" },
    { key: "s2", chatType: "EXTERNAL", memoryType: "Buffer Memory", day: "2025-03-02" },
    { key: "s3", chatType: "INTERNAL", memoryType: undefined, day: "2025-03-03" },
    { key: "s4", chatType: "EXTERNAL", memoryType: "Buffer Window Memory", day: "2025-03-04" },
    { key: "s5", chatType: "INTERNAL", memoryType: "Buffer Memory", day: "2025-03-05" },
  ] as const;
  const answers: Record<string, string> = {};
  const questions: Record<string, string> = {};
  for (const r of rows) {
    const ids = await insertExchange({
      chatflowId: flowId,
      sessionId: r.key,
      chatId: `chat-${r.key}`,
      chatType: r.chatType,
      memoryType: r.memoryType,
      question: `question ${r.key}`,
      answer: `answer ${r.key}`,
      askedAt: new Date(`${r.day}T10:00:00Z`),
      answeredAt: new Date(`${r.day}T10:00:01Z`),
    });
    answers[r.key] = ids.apiMessageId;
    questions[r.key] = ids.userMessageId;
  }
  const db = await getDb();
  await db.chatMessageFeedback.create({
    data: { chatflowId: flowId, chatId: "chat-s1", messageId: answers.s1, rating: "THUMBS_UP", content: "great" },
  });
  await db.chatMessageFeedback.create({
    data: { chatflowId: flowId, chatId: "chat-s2", messageId: answers.s2, rating: "THUMBS_DOWN", content: "" },
  });
  return { flowId, answers, questions };
}

const list = (flowId: string, query: string) =>
  call(messages.GET, { params: { id: flowId }, path: `/x?${query}`, headers: basic });
const del = (flowId: string, query: string) =>
  call(messages.DELETE, { method: "DELETE", params: { id: flowId }, path: `/x?${query}`, headers: basic });
const contents = async (flowId: string, query: string) => {
  const res = await list(flowId, query);
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  return (res.json as { content: string }[]).map((m) => m.content);
};
const remaining = async (flowId: string) =>
  (await (await getDb()).chatMessage.findMany({ where: { chatflowId: flowId }, orderBy: { createdAt: "asc" } })).map(
    (m) => m.content,
  );

describe("GET /api/v1/chatmessage/{id}: every Flowise filter", () => {
  let s: Seeded;
  beforeAll(async () => {
    s = await seed();
  });

  it("chatType, chatId, sessionId, memoryType, messageId", async () => {
    expect(await contents(s.flowId, "chatType=INTERNAL")).toEqual([
      "question s3",
      "answer s3",
      "question s5",
      "answer s5",
    ]);
    expect(await contents(s.flowId, "chatId=chat-s2")).toEqual(["question s2", "answer s2"]);
    expect(await contents(s.flowId, "sessionId=s4")).toEqual(["question s4", "answer s4"]);
    expect(await contents(s.flowId, "memoryType=Buffer%20Window%20Memory")).toEqual(["question s4", "answer s4"]);
    expect(await contents(s.flowId, `messageId=${s.answers.s5}`)).toEqual(["answer s5"]);
  });

  it("order, startDate and endDate", async () => {
    expect(await contents(s.flowId, "startDate=2025-03-02&endDate=2025-03-03&order=DESC")).toEqual([
      "answer s3",
      "question s3",
      "answer s2",
      "question s2",
    ]);
  });

  it("feedbackType keeps the exchanges rated so (answer and its question, as Flowise); feedback=true any rating", async () => {
    const rated = await list(s.flowId, "feedback=true");
    expect(rated.json.map((m: { content: string }) => m.content)).toEqual([
      "question s1",
      "answer s1",
      "question s2",
      "answer s2",
    ]);
    expect(rated.json[1].feedback).toMatchObject({ rating: "THUMBS_UP", content: "great" });
    expect(rated.json[0].feedback).toBeNull();
    expect(await contents(s.flowId, "feedback=true&feedbackType=THUMBS_DOWN")).toEqual(["question s2", "answer s2"]);
    expect(await contents(s.flowId, "feedbackType=thumbs_up")).toEqual(["question s1", "answer s1"]);
    // Flowise's JSON array (and a comma list): both ratings.
    expect(await contents(s.flowId, `feedbackType=${encodeURIComponent('["THUMBS_UP","THUMBS_DOWN"]')}`)).toHaveLength(
      4,
    );
    expect(await contents(s.flowId, "feedbackType=THUMBS_DOWN,THUMBS_DOWN")).toEqual(["question s2", "answer s2"]);
    // With other filters: both apply.
    expect(await contents(s.flowId, "feedback=true&sessionId=s2&order=DESC")).toEqual(["answer s2", "question s2"]);
    // false: the unrated exchanges.
    expect(await contents(s.flowId, "feedback=false&chatType=EXTERNAL")).toEqual(["question s4", "answer s4"]);
    // Unrated messages carry feedback: null.
    expect((await list(s.flowId, `messageId=${s.answers.s4}`)).json[0].feedback).toBeNull();
  });

  it("refuses unknown parameters and bad values with a 400 naming them", async () => {
    const unknown = await list(s.flowId, "feedbak=true");
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.message).toContain("'feedbak'");
    for (const [q, field] of [
      ["feedback=yes", "feedback"],
      ["feedbackType=LOVE", "feedbackType"],
      ["feedback=false&feedbackType=THUMBS_UP", "feedbackType"],
      ["order=UP", "order"],
      ["chatType=PUBLIC", "chatType"],
      ["startDate=2025-02-30", "startDate"],
      ["messageId=12", "messageId"],
    ]) {
      const res = await list(s.flowId, q);
      expect(res.status, q).toBe(400);
      expect(res.json.error.message, q).not.toContain("query.");
      expect(
        res.json.error.details.map((d: { field: string }) => d.field),
        q,
      ).toEqual([expect.stringMatching(new RegExp(`^query\\.${field}(\\.|$)`))]);
    }
  });
});

describe("DELETE /api/v1/chatmessage/{id}: filters never widen", () => {
  it("feedbackType deletes only the messages rated so, and their feedback", async () => {
    const s = await seed();
    const res = await del(s.flowId, "feedbackType=THUMBS_DOWN");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ deleted: 2 });
    expect(await remaining(s.flowId)).not.toContain("answer s2");
    expect(await remaining(s.flowId)).not.toContain("question s2");
    expect(await remaining(s.flowId)).toHaveLength(8);
    const db = await getDb();
    expect(await db.chatMessageFeedback.count({ where: { chatflowId: s.flowId } })).toBe(1);
  });

  it("feedback=true with sessionId deletes only that session's rated exchange; feedback=false only unrated ones", async () => {
    const s = await seed();
    expect((await del(s.flowId, "feedback=true&sessionId=s2")).json).toEqual({ deleted: 2 });
    expect(await remaining(s.flowId)).toHaveLength(8);
    // s1 is rated: nothing of it is unrated.
    expect((await del(s.flowId, "feedback=false&sessionId=s1")).json).toEqual({ deleted: 0 });
    expect((await del(s.flowId, "feedback=false&chatType=INTERNAL")).json).toEqual({ deleted: 4 });
    expect(await remaining(s.flowId)).toEqual(["question s1", "answer s1", "question s4", "answer s4"]);
  });

  it("each other filter deletes only its matches", async () => {
    const s = await seed();
    expect((await del(s.flowId, "chatType=INTERNAL&memoryType=Buffer%20Memory")).json).toEqual({ deleted: 2 });
    expect((await del(s.flowId, `messageId=${s.questions.s4}`)).json).toEqual({ deleted: 1 });
    expect((await del(s.flowId, "chatId=chat-s3&startDate=2025-03-04")).json).toEqual({ deleted: 0 });
    expect((await del(s.flowId, "startDate=2025-03-01&endDate=2025-03-01&order=ASC")).json).toEqual({ deleted: 2 });
    expect(await remaining(s.flowId)).toEqual(["question s2", "answer s2", "question s3", "answer s3", "answer s4"]);
  });

  it("an unknown parameter or a bad value is a 400 and deletes nothing", async () => {
    const s = await seed();
    for (const q of ["feedbackTyp=THUMBS_UP", "feedbackType=MEH", "feedback=1", "sessionId=s1&page=1"]) {
      const res = await del(s.flowId, q);
      expect(res.status, q).toBe(400);
    }
    expect(await remaining(s.flowId)).toHaveLength(10);
  });
});
