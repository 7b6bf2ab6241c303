import { anchor, defineMapping, param, toBoolean, toText } from "../rules";

/**
 * Flowise "Conversational Retrieval QA Chain" → ours. Flowise's response prompt (with {context})
 * is our system message; its rephrase prompt uses the same {chat_history} and {question}.
 */
export const conversationalRetrievalQAChain = defineMapping({
  flowise: "conversationalRetrievalQAChain",
  type: "conversationalRetrievalQAChain",
  inputs: {
    model: anchor("model"),
    vectorStoreRetriever: anchor("retriever"),
    memory: anchor("memory"),
    returnSourceDocuments: param("returnSourceDocuments", toBoolean),
    rephrasePrompt: param("rephrasePrompt", toText),
    responsePrompt: param("systemMessage", toText),
  },
});
