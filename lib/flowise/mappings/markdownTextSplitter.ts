import { defineMapping, param, toInteger, toText } from "../rules";

/** Flowise "Markdown Text Splitter" → ours (its heading levels h1…h6 or disabled are the same names). */
export const markdownTextSplitter = defineMapping({
  flowise: "markdownTextSplitter",
  type: "markdownTextSplitter",
  inputs: {
    chunkSize: param("chunkSize", toInteger),
    chunkOverlap: param("chunkOverlap", toInteger),
    splitByHeaders: param("splitByHeaders", toText),
  },
  outputs: { markdownTextSplitter: "textSplitter" },
});
