import { anchor, defineMapping, param, toBoolean } from "../rules";

/**
 * Flowise "Query Engine" (LlamaIndex) → our Query Engine. Flowise's has no model input: it answers
 * with the model given to its vector store, which our store nodes do not take; so that model is
 * connected to our engine instead (`borrow`).
 */
export const queryEngine = defineMapping({
  flowise: "queryEngine",
  type: "queryEngine",
  note: `Flowise's LlamaIndex node "Query Engine" was imported as our Query Engine (our own engine on our retrievers), answering with the model its vector store had in Flowise: check its settings.`,
  inputs: {
    vectorStoreRetriever: anchor("retriever"),
    responseSynthesizer: anchor("responseSynthesizer"),
    returnSourceDocuments: param("returnSourceDocuments", toBoolean),
  },
  borrow: { model: { via: "vectorStoreRetriever", input: "model" } },
  outputs: { queryEngine: "queryEngine" },
});
