import { DT } from "../../vector/node-types";
import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const DEFAULT_QA_SYSTEM_MESSAGE =
  "Use the following pieces of context to answer the user's question. If the context does not contain the answer, say that you don't know; don't make one up.\n\nContext:\n{context}";

export const DEFAULT_REPHRASE_PROMPT =
  "Given the conversation below and a follow-up question, rephrase the follow-up question as a standalone question, in its original language. Answer with the question only.\n\nConversation:\n{chat_history}\n\nFollow-up question: {question}\nStandalone question:";

export const conversationalRetrievalQAChainDefinition = {
  name: "conversationalRetrievalQAChain",
  version: 1,
  label: "Conversational Retrieval QA Chain",
  category: "Chains",
  description:
    "Answers from documents: finds the chunks relevant to the question (rephrased with the conversation when a memory is connected) and asks the model to answer from them. Reports the chunks as source documents.",
  inputs: [
    { kind: "anchor", name: "model", label: "Chat model", accepts: [T.chatModel] },
    {
      kind: "anchor",
      name: "retriever",
      label: "Retriever",
      accepts: [DT.retriever],
      list: true,
      description: "A vector store, a keyword store, or both (hybrid search).",
    },
    { kind: "anchor", name: "memory", label: "Memory", accepts: [T.memory], optional: true },
    {
      kind: "param",
      name: "systemMessage",
      label: "System message",
      type: "text",
      editor: "prompt",
      default: DEFAULT_QA_SYSTEM_MESSAGE,
      additional: true,
      description: "{context} is replaced by the chunks found.",
    },
    {
      kind: "param",
      name: "rephrasePrompt",
      label: "Rephrase prompt",
      type: "text",
      editor: "prompt",
      default: DEFAULT_REPHRASE_PROMPT,
      additional: true,
    },
    {
      kind: "param",
      name: "returnSourceDocuments",
      label: "Report source documents",
      type: "boolean",
      default: true,
      additional: true,
    },
  ],
  outputs: [{ name: "chain", label: "Chain", types: [T.chain] }],
} as const satisfies NodeDefinitionSpec;
