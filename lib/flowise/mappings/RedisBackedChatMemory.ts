import { defineMapping, ignore, oneOf, param, toInteger } from "../rules";

/**
 * Flowise "Redis-Backed Chat Memory" → our Buffer Memory. Every Switchyard flow keeps its sessions'
 * messages on the server already (the database, read through Redis in queue mode), by each
 * prediction's sessionId; the memory node only chooses how much of it the model sees. So the Redis
 * connection is not needed, and an expiry (sessionTTL) is not carried over: delete a session's
 * messages through the Message API instead.
 */
export const RedisBackedChatMemory = defineMapping({
  flowise: "RedisBackedChatMemory",
  type: "bufferMemory",
  note: "Flowise's Redis-Backed Chat Memory was imported as our Buffer Memory: sessions are kept by the server (no Redis credential needed).",
  inputs: {
    // Flowise's window counts exchanges (a question and its answer); ours counts messages.
    windowSize: param("windowSize", (value, ctx) => {
      const r = toInteger(value, ctx);
      return "value" in r ? { value: (r.value as number) * 2 } : r;
    }),
    sessionTTL: ignore(
      "sessions do not expire on their own",
      undefined,
      "the session expiry (sessionTTL) is not carried over: sessions are kept until deleted (Message API)",
    ),
    sessionId: ignore(
      "a fixed session id has no equivalent: sessions come from each prediction's sessionId (or chatId)",
      () => false,
    ),
    memoryKey: ignore("a custom memory key has no equivalent", oneOf("chat_history")),
  },
  outputs: { RedisBackedChatMemory: "memory" },
});
