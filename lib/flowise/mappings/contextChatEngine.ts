import { anchor, defineMapping, param, toBoolean, toText } from "../rules";
import { llamaIndexNote } from "./llamaIndex";

/**
 * Flowise "Context Chat Engine" (LlamaIndex: retrieve context for each message, answer with the
 * conversation) → our Conversational Retrieval QA Chain, which does the same (the question is
 * rephrased with the history before retrieval). Its system message gets {context} appended when the
 * Flowise one has no place for it, as the engine put the context after the system message.
 */
export const contextChatEngine = defineMapping({
  flowise: "contextChatEngine",
  type: "conversationalRetrievalQAChain",
  note: llamaIndexNote("Context Chat Engine", "Conversational Retrieval QA Chain"),
  inputs: {
    model: anchor("model"),
    vectorStoreRetriever: anchor("retriever"),
    memory: anchor("memory"),
    returnSourceDocuments: param("returnSourceDocuments", toBoolean),
    systemMessagePrompt: param("systemMessage", (value, ctx) => {
      const r = toText(value, ctx);
      if (!("value" in r)) return r;
      const text = String(r.value);
      return { value: text.includes("{context}") ? text : `${text}\n\nContext:\n{context}` };
    }),
  },
  outputs: { contextChatEngine: "chain" },
});
