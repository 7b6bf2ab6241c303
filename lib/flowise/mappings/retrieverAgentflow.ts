import { defineMapping, ignore, param } from "../rules";
import { jsonList, optionOf, stepText } from "../step-rules";

/** Flowise "Retriever" (agentflow) → our Retriever; Flowise's document stores stay there (connect ours). */
export const retrieverAgentflow = defineMapping({
  flowise: "retrieverAgentflow",
  type: "retrieverAgentflow",
  step: {},
  richText: true,
  inputs: {
    retrieverKnowledgeDocumentStores: ignore(
      "document stores stay in Flowise",
      undefined,
      "Flowise's document stores hold data that stays in Flowise: they are left out; connect one of our stores to “Stores” and upsert the documents there.",
    ),
    retrieverQuery: param("retrieverQuery", stepText),
    outputFormat: param("outputFormat", optionOf("text", "textWithMetadata")),
    retrieverUpdateState: param("retrieverUpdateState", jsonList),
  },
});
