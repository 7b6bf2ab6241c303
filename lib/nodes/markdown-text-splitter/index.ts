import { MarkdownTextSplitter } from "@langchain/textsplitters";
import { defineNode } from "../define";
import { checkChunking, MarkdownSectionSplitter } from "../shared/splitters";
import { markdownTextSplitterDefinition } from "./definition";

export const markdownTextSplitter = defineNode({
  definition: markdownTextSplitterDefinition,
  runtime: async ({ params, label }) => {
    checkChunking(label, params);
    const inner = new MarkdownTextSplitter({ chunkSize: params.chunkSize, chunkOverlap: params.chunkOverlap });
    const level = params.splitByHeaders === "disabled" ? 0 : Number(params.splitByHeaders.slice(1));
    return new MarkdownSectionSplitter(level, inner);
  },
});
