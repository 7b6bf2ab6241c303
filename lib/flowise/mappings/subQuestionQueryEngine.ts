import { anchor, defineMapping, ignore, param, toBoolean } from "../rules";

/** Flowise "Sub Question Query Engine" (LlamaIndex) → ours; its embeddings have no use there (the tools' stores embed). */
export const subQuestionQueryEngine = defineMapping({
  flowise: "subQuestionQueryEngine",
  type: "subQuestionQueryEngine",
  note: `Flowise's LlamaIndex node "Sub Question Query Engine" was imported as our Sub Question Query Engine (our own engine: the model writes the sub-questions as JSON): check its settings.`,
  inputs: {
    queryEngineTools: anchor("queryEngineTools"),
    model: anchor("model"),
    embeddings: ignore(
      "the engine embeds nothing itself: each tool's vector store has its own embeddings",
      undefined,
      "the engine's embeddings are not carried over: each tool's vector store embeds with its own",
    ),
    responseSynthesizer: anchor("responseSynthesizer"),
    returnSourceDocuments: param("returnSourceDocuments", toBoolean),
  },
});
