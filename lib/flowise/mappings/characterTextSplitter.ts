import { defineMapping, param, toInteger, toText } from "../rules";

/** Flowise "Character Text Splitter" → ours. */
export const characterTextSplitter = defineMapping({
  flowise: "characterTextSplitter",
  type: "characterTextSplitter",
  inputs: {
    chunkSize: param("chunkSize", toInteger),
    chunkOverlap: param("chunkOverlap", toInteger),
    separator: param("separator", toText),
  },
  outputs: { characterTextSplitter: "textSplitter" },
});
