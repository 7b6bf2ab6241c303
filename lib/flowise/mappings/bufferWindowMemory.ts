import { defineMapping, ignore, oneOf, param, toInteger } from "../rules";

/** Flowise "Buffer Window Memory" (last k exchanges) → our Buffer Memory with a window. */
export const bufferWindowMemory = defineMapping({
  flowise: "bufferWindowMemory",
  type: "bufferMemory",
  inputs: {
    // Flowise's k counts exchanges (a question and its answer); our window counts messages.
    k: param("windowSize", (value, ctx) => {
      const r = toInteger(value, ctx);
      return "value" in r ? { value: (r.value as number) * 2 } : r;
    }),
    sessionId: ignore(
      "a fixed session id has no equivalent: sessions come from each prediction's sessionId (or chatId)",
      () => false,
    ),
    memoryKey: ignore("a custom memory key has no equivalent", oneOf("chat_history")),
  },
  outputs: { bufferWindowMemory: "memory" },
});
