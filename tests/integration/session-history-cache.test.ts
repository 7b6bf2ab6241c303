// The session histories a process keeps (lib/services/session-history.ts): whatever happens to a
// session (turns stored in order, in the same millisecond, out of order, at once; reads with other
// limits; deletes), a read from the cache equals the database's read at that moment. And where the
// process is not the database's only writer, there is no cache.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";
import { createModelStub } from "../../dev/model-stub/server";
import {
  deleteChatMessages as deleteRows,
  exchangeTimes,
  findSessionHistory,
  insertExchange,
} from "../../lib/db/queries/chat-messages";
import { storableText } from "../../lib/db/storable-text";
import { resetEnvForTests } from "../../lib/env";
import { deleteChatMessages } from "../../lib/services/chat-messages";
import { createChatflow } from "../../lib/services/chatflows";
import { fromJsonBody } from "../../lib/services/prediction-input";
import { startPrediction } from "../../lib/services/predictions";
import {
  SessionHistoryCache,
  sessionHistoryCache,
  soleWriter,
  storeExchange,
} from "../../lib/services/session-history";

let flowId: string;
beforeAll(async () => {
  flowId = (
    await createChatflow({ name: "Cache", graph: exampleFlow("conversation.json").graph as never }, systemCaller)
  ).id;
});

const truth = async (sessionId: string, limit: number) =>
  (await findSessionHistory({ chatflowId: flowId, sessionId, limit })).messages;

/** Stores an exchange at the given times and tells `cache` (what storeExchange does for the process's cache). */
async function store(cache: SessionHistoryCache, sessionId: string, n: number, askedAt: number, answeredAt: number) {
  const question = `question ${n}`;
  const answer = `answer ${n} \u0000`; // stored as the database keeps it (NUL replaced)
  const stored = exchangeTimes(new Date(askedAt), new Date(answeredAt));
  await insertExchange({
    chatflowId: flowId,
    sessionId,
    chatId: sessionId,
    chatType: "EXTERNAL",
    question,
    answer,
    askedAt: new Date(askedAt),
    answeredAt: new Date(answeredAt),
  });
  cache.stored(
    flowId,
    sessionId,
    [
      { role: "userMessage", content: storableText(question) },
      { role: "apiMessage", content: storableText(answer) },
    ],
    stored.askedAt,
    stored.answeredAt,
  );
}

describe("SessionHistoryCache", () => {
  it("answers what the database answers, whatever the order of turns, limits and deletes (random walk)", async () => {
    const cache = new SessionHistoryCache(1024 * 1024);
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const sessions = ["walk-a", "walk-b", "walk-c"];
    let clock = Date.UTC(2026, 0, 1);
    const usedTimes: Record<string, { q: Set<number>; a: Set<number> }> = {};
    let overlapping = 0;
    for (let step = 0; step < 300; step += 1) {
      const sessionId = sessions[rand(sessions.length)];
      const op = rand(10);
      if (op < 5) {
        // Mostly forward in time; sometimes the same millisecond, or a step back (a turn asked before
        // the last one was answered).
        const move = [5, 5, 1, 0, 0, -3, -12][rand(7)];
        clock += move;
        // Stored answers are at least 1 ms after their question. Two questions (or two answers) of one
        // session in the same millisecond have no order in the database (its answer may differ from
        // read to read); the walk makes none, and keeps every other collision.
        const asked = clock;
        const answered = Math.max(clock + rand(3), asked + 1);
        const used = (usedTimes[sessionId] ??= { q: new Set(), a: new Set() });
        if (used.q.has(asked) || used.a.has(answered)) continue;
        if (Math.max(-Infinity, ...used.q) > asked) overlapping += 1;
        used.q.add(asked);
        used.a.add(answered);
        await store(cache, sessionId, step, asked, answered);
      } else if (op < 9) {
        const limit = 1 + rand(12);
        expect({ step, rows: await cache.read(flowId, sessionId, limit) }).toEqual({
          step,
          rows: await truth(sessionId, limit),
        });
      } else {
        await deleteRows({ where: { chatflowId: flowId, sessionId } });
        delete usedTimes[sessionId];
        cache.dropChatflow(flowId);
      }
    }
    // The walk hit the cache often, and still matched the database every time.
    expect(cache.hits).toBeGreaterThan(30);
    expect(cache.misses).toBeGreaterThan(2);
    // Turns stored before a later-asked one of their session (overlapping or a clock step back)
    // went in among the held rows, not at the end.
    expect(overlapping).toBeGreaterThan(10);
  });

  it("does not keep a read that was on its way while an exchange of its session was stored", async () => {
    // The database answers the read before the exchange is stored; the answer reaches the cache after.
    let readDone!: () => void;
    let answered!: () => void;
    const gate = new Promise<void>((resolve) => (answered = resolve));
    const slowLoad: typeof findSessionHistory = async (args) => {
      const rows = await findSessionHistory(args);
      readDone();
      await gate;
      return rows;
    };
    const cache = new SessionHistoryCache(1024 * 1024, slowLoad);
    const sessionId = "race";
    const t = Date.UTC(2026, 1, 1);
    await store(cache, sessionId, 1, t, t + 1);
    const read = new Promise<void>((resolve) => (readDone = resolve));
    const inFlight = cache.read(flowId, sessionId, 10); // a miss: goes to the database
    await read;
    await store(cache, sessionId, 2, t + 10, t + 11);
    answered();
    expect(await inFlight).toHaveLength(2); // what the database had when it was asked
    expect(await cache.read(flowId, sessionId, 10)).toEqual(await truth(sessionId, 10));
    expect((await cache.read(flowId, sessionId, 10)).length).toBe(4);
  });

  it("keeps a session whose turns overlap: both orders of completion read as the database does", async () => {
    const cache = new SessionHistoryCache(1024 * 1024);
    const t = Date.UTC(2026, 5, 1);
    for (const [sessionId, first, second] of [
      ["overlap-in-order", 1, 2],
      ["overlap-reversed", 2, 1],
    ] as const) {
      await store(cache, sessionId, 0, t, t + 1);
      expect(await cache.read(flowId, sessionId, 10)).toEqual(await truth(sessionId, 10)); // a miss: held now
      // Turn 1 asked at t+10, answered at t+30; turn 2 asked at t+20 (before 1's answer), answered
      // at t+25. The database reads q1 q2 a2 a1 whichever is stored first.
      const turns = { 1: [t + 10, t + 30], 2: [t + 20, t + 25] } as const;
      await store(cache, sessionId, first, ...turns[first]);
      await store(cache, sessionId, second, ...turns[second]);
      const misses = cache.misses;
      const rows = await cache.read(flowId, sessionId, 10);
      expect(cache.misses).toBe(misses);
      expect(rows).toEqual(await truth(sessionId, 10));
      expect(rows.map((r) => r.content.split(" ").slice(0, 2).join(" "))).toEqual([
        "question 0",
        "answer 0",
        "question 1",
        "question 2",
        "answer 2",
        "answer 1",
      ]);
    }
  });

  it("leaves out of a partial history a turn older than all it holds, and drops a session on a tie", async () => {
    const cache = new SessionHistoryCache(1024 * 1024);
    const t = Date.UTC(2026, 6, 1);
    for (let i = 0; i < 4; i += 1) await store(cache, "partial", i, t + 100 + 10 * i, t + 101 + 10 * i);
    expect(await cache.read(flowId, "partial", 4)).toEqual(await truth("partial", 4)); // the newest 4 of 8
    await store(cache, "partial", 9, t, t + 1); // older than all four: not among the newest
    let misses = cache.misses;
    expect(await cache.read(flowId, "partial", 4)).toEqual(await truth("partial", 4));
    expect(cache.misses).toBe(misses);
    // Asked in the millisecond of a held question: the database gives the two no order.
    await store(cache, "partial", 10, t + 130, t + 135);
    misses = cache.misses;
    await cache.read(flowId, "partial", 4);
    expect(cache.misses).toBe(misses + 1);
  });

  it("keeps no more rows than its reads asked for, and reads a longer history again", async () => {
    const cache = new SessionHistoryCache(1024 * 1024);
    const sessionId = "cap";
    const t = Date.UTC(2026, 2, 1);
    for (let i = 0; i < 5; i += 1) await store(cache, sessionId, i, t + 10 * i, t + 10 * i + 1);
    expect(await cache.read(flowId, sessionId, 4)).toEqual(await truth(sessionId, 4));
    for (let i = 5; i < 8; i += 1) await store(cache, sessionId, i, t + 10 * i, t + 10 * i + 1);
    const misses = cache.misses;
    expect(await cache.read(flowId, sessionId, 4)).toEqual(await truth(sessionId, 4));
    expect(cache.misses).toBe(misses);
    expect(await cache.read(flowId, sessionId, 12)).toEqual(await truth(sessionId, 12));
    expect(cache.misses).toBe(misses + 1);
  });

  it("hands out copies: a caller changing its messages changes nothing held", async () => {
    const cache = new SessionHistoryCache(1024 * 1024);
    const t = Date.UTC(2026, 4, 1);
    await store(cache, "copies", 1, t, t + 1);
    const first = await cache.read(flowId, "copies", 10); // from the database
    first[0].content = "changed";
    const second = await cache.read(flowId, "copies", 10); // from the cache
    expect(second[0].content).toBe("question 1");
    second[1].content = "changed too";
    expect(await cache.read(flowId, "copies", 10)).toEqual(await truth("copies", 10));
    expect(cache.hits).toBe(2);
  });

  it("stays within its size: the least recently used sessions go", async () => {
    const cache = new SessionHistoryCache(64 * 1024);
    const t = Date.UTC(2026, 3, 1);
    for (let s = 0; s < 10; s += 1) {
      await store(cache, `size-${s}`, s, t, t + 1);
      await cache.read(flowId, `size-${s}`, 10);
    }
    expect(cache.size).toBe(10);
    const big = "x".repeat(10_000); // an entry of ~40 KB (UTF-16): one fits beside a few small ones
    for (let s = 0; s < 3; s += 1) {
      await insertExchange({
        chatflowId: flowId,
        sessionId: `big-${s}`,
        chatId: "c",
        chatType: "EXTERNAL",
        question: big,
        answer: big,
        askedAt: new Date(t),
        answeredAt: new Date(t + 1),
      });
      expect(await cache.read(flowId, `big-${s}`, 10)).toHaveLength(2);
      expect(cache.bytes).toBeLessThanOrEqual(64 * 1024);
    }
    expect(cache.size).toBeLessThan(10);
    // The newest stays; the oldest small ones went first.
    const misses = cache.misses;
    await cache.read(flowId, "big-2", 10);
    expect(cache.misses).toBe(misses);
    await cache.read(flowId, "size-0", 10);
    expect(cache.misses).toBe(misses + 1);
  });
});

describe("the process's session history cache", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ["DATABASE_URL", "MODE", "API_PROCESSES", "REDIS_URL"]) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    resetEnvForTests();
  });

  it("exists only where this process is the database's one writer", () => {
    const embedded = !process.env.DATABASE_URL || process.env.DATABASE_URL.startsWith("pglite:");
    expect(soleWriter()).toBe(embedded);
    process.env.DATABASE_URL = "postgresql://127.0.0.1:5432/x";
    resetEnvForTests();
    expect(soleWriter()).toBe(false);
    delete process.env.DATABASE_URL;
    process.env.API_PROCESSES = "2";
    resetEnvForTests();
    expect(soleWriter()).toBe(false);
    process.env.API_PROCESSES = "1";
    resetEnvForTests();
    expect(soleWriter()).toBe(true);
  });

  it("serves a chat's second turn from memory, and forgets a session whose messages were deleted", async () => {
    const stub = await createModelStub();
    Object.assign(process.env, { OPENAI_API_KEY: "k", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
    resetEnvForTests();
    try {
      const ask = async (question: string) =>
        (
          await startPrediction(
            {
              chatflowId: flowId,
              body: fromJsonBody({ question, overrideConfig: { sessionId: "turns" } }),
              caller: systemCaller,
              origin: null,
              clientIp: "127.0.0.1",
            },
            "EXTERNAL",
          )
        ).execute({});
      await ask("My name is Ada.");
      const cache = sessionHistoryCache();
      const hits = cache?.hits ?? 0;
      stub.requests.length = 0;
      await ask("What is my name?");
      const sent = JSON.stringify(stub.requests.at(-1)?.body);
      expect(sent).toContain("My name is Ada.");
      if (cache) expect(cache.hits).toBe(hits + 1);
      else expect(process.env.DATABASE_URL).toMatch(/^postgres/);
      await deleteChatMessages(flowId, { sessionId: "turns" } as never, systemCaller);
      stub.requests.length = 0;
      await ask("What is my name?");
      expect(JSON.stringify(stub.requests.at(-1)?.body)).not.toContain("My name is Ada.");
      expect(await truth("turns", 10)).toHaveLength(2);
    } finally {
      await stub.close();
    }
  });

  it("storeExchange tells the cache: the next read needs no statement and equals the database", async () => {
    const cache = sessionHistoryCache();
    if (!cache) return expect(soleWriter()).toBe(false);
    const sessionId = "store";
    await cache.read(flowId, sessionId, 10);
    const t = Date.now();
    await storeExchange({
      chatflowId: flowId,
      sessionId,
      chatId: sessionId,
      chatType: "EXTERNAL",
      question: "q",
      answer: "a",
      askedAt: new Date(t + 5),
      answeredAt: new Date(t + 6),
    });
    const misses = cache.misses;
    expect(await cache.read(flowId, sessionId, 10)).toEqual(await truth(sessionId, 10));
    expect(cache.misses).toBe(misses);
  });
});
