import { defineMapping, ignore, oneOf } from "../rules";

const sessionId = ignore(
  "a fixed session id has no equivalent: sessions come from each prediction's sessionId (or chatId)",
  () => false,
);
const memoryKey = ignore("a custom memory key has no equivalent", oneOf("chat_history"));

/** Flowise "Buffer Memory" → our Buffer Memory (every message of the session). */
export const bufferMemory = defineMapping({
  flowise: "bufferMemory",
  type: "bufferMemory",
  inputs: { sessionId, memoryKey },
});
