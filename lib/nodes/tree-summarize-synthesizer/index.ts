import { defineNode } from "../define";
import { responseSynthesizer } from "../shared/response-synthesis";
import { treeSummarizeSynthesizerDefinition } from "./definition";

export const treeSummarizeSynthesizer = defineNode({
  definition: treeSummarizeSynthesizerDefinition,
  runtime: async ({ params }) => responseSynthesizer("treeSummarize", { textQAPrompt: params.prompt }),
});
