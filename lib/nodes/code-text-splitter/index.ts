import { RecursiveCharacterTextSplitter } from "@langchain/textsplitters";
import { defineNode } from "../define";
import { checkChunking } from "../shared/splitters";
import { codeTextSplitterDefinition } from "./definition";

export const codeTextSplitter = defineNode({
  definition: codeTextSplitterDefinition,
  runtime: async ({ params, label }) => {
    checkChunking(label, params);
    return RecursiveCharacterTextSplitter.fromLanguage(params.language, {
      chunkSize: params.chunkSize,
      chunkOverlap: params.chunkOverlap,
    });
  },
});
