// The session history read of every prediction (findSessionHistory): its order, and that the plan
// PostgreSQL may keep for it once prepared (a generic plan, made without the values) is the backward
// scan of the session index, never a walk of the chatflow's whole history.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";
import { getDb, getSql } from "../../lib/db/client";
import { findSessionHistory, insertExchange, SESSION_HISTORY_SQL } from "../../lib/db/queries/chat-messages";
import { createChatflow } from "../../lib/services/chatflows";

let flowId: string;

beforeAll(async () => {
  flowId = (
    await createChatflow({ name: "History", graph: exampleFlow("conversation.json").graph as never }, systemCaller)
  ).id;
  // A chatflow with a long history in other sessions: what made the wrong plan look cheap.
  const sql = await getSql();
  await sql(
    `INSERT INTO "ChatMessage" ("id","chatflowId","sessionId","chatId","role","content","createdAt")
     SELECT gen_random_uuid(), $1::uuid, 'busy-' || (i % 40), 'c', (CASE WHEN i % 2 = 0 THEN 'userMessage' ELSE 'apiMessage' END)::"MessageRole",
            'm' || i, now() - (i || ' seconds')::interval
     FROM generate_series(1, 4000) i`,
    [flowId],
  );
});

/** Two rows with the same millisecond, inserted answer first (what an index order must not depend on). */
async function insertTiedExchange(sessionId: string, at: string, n: number) {
  const sql = await getSql();
  await sql(
    `INSERT INTO "ChatMessage" ("id","chatflowId","sessionId","chatId","role","content","createdAt") VALUES
       ($1::uuid,$3::uuid,$4,$4,'apiMessage',$6,$5::timestamp),($2::uuid,$3::uuid,$4,$4,'userMessage',$7,$5::timestamp)`,
    [randomUUID(), randomUUID(), flowId, sessionId, at, `answer ${n}`, `question ${n}`],
  );
}

describe("findSessionHistory", () => {
  it("returns the last `limit` messages oldest first, a question before its answer in the same millisecond", async () => {
    const sessionId = `s-${randomUUID()}`;
    await insertTiedExchange(sessionId, "2026-01-01 10:00:00.000", 1);
    await insertTiedExchange(sessionId, "2026-01-01 10:00:01.000", 2);
    await insertExchange({
      chatflowId: flowId,
      sessionId,
      chatId: sessionId,
      chatType: "EXTERNAL",
      question: "question 3",
      answer: "answer 3",
      askedAt: new Date("2026-01-01T10:00:02.000Z"),
      answeredAt: new Date("2026-01-01T10:00:02.000Z"),
    });
    const all = (await findSessionHistory({ chatflowId: flowId, sessionId, limit: 50 })).messages;
    expect(all.map((m) => m.content)).toEqual([
      "question 1",
      "answer 1",
      "question 2",
      "answer 2",
      "question 3",
      "answer 3",
    ]);
    expect(all.map((m) => m.role)).toEqual([
      "userMessage",
      "apiMessage",
      "userMessage",
      "apiMessage",
      "userMessage",
      "apiMessage",
    ]);
    const last3 = (await findSessionHistory({ chatflowId: flowId, sessionId, limit: 3 })).messages;
    expect(last3.map((m) => m.content)).toEqual(["answer 2", "question 3", "answer 3"]);
    // Another session of the same chatflow and the same session id in another chatflow stay apart.
    expect(
      (await findSessionHistory({ chatflowId: flowId, sessionId: `${sessionId}-other`, limit: 50 })).messages,
    ).toEqual([]);
    expect((await findSessionHistory({ chatflowId: randomUUID(), sessionId, limit: 50 })).messages).toEqual([]);
  });

  it("repeated calls (a prepared statement) keep answering right", async () => {
    const sessionId = `s-${randomUUID()}`;
    for (let i = 0; i < 8; i++) {
      await insertTiedExchange(sessionId, `2026-01-01 11:00:0${i}.000`, i);
      const got = (await findSessionHistory({ chatflowId: flowId, sessionId, limit: 4 })).messages;
      expect(got.at(-1)?.content).toBe(`answer ${i}`);
      expect(got.length).toBe(Math.min(4, 2 * (i + 1)));
    }
  });

  /** The plan PostgreSQL keeps for `sqlText` once it uses a generic plan (forced here). */
  async function genericPlan(sqlText: string): Promise<string> {
    const db = await getDb();
    return db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL plan_cache_mode = force_generic_plan");
      await tx.$executeRawUnsafe(`PREPARE history_plan_check AS ${sqlText}`);
      try {
        const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
          `EXPLAIN EXECUTE history_plan_check('${flowId}', 'busy-1', 20)`,
        );
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      } finally {
        await tx.$executeRawUnsafe("DEALLOCATE history_plan_check");
      }
    });
  }

  it("has a generic plan that reads the session's index backwards, with no sort", async () => {
    const plan = await genericPlan(SESSION_HISTORY_SQL);
    expect(plan).toMatch(/Index Scan Backward using "?ChatMessage_chatflowId_sessionId_createdAt_role_idx/);
    expect(plan).not.toMatch(/Sort/);
    // The control: the order before (by the role's text, ascending), which no index holds, needs a sort.
    const before = SESSION_HISTORY_SQL.replace(`"ChatMessage"."role" DESC`, `"role" ASC`);
    expect(before).not.toBe(SESSION_HISTORY_SQL);
    expect(await genericPlan(before)).toMatch(/Sort/);
  });
});
