import { defineMapping, param, toInteger, toText } from "../rules";

/** Flowise "Token Text Splitter" → ours (the same tiktoken encoding names). */
export const tokenTextSplitter = defineMapping({
  flowise: "tokenTextSplitter",
  type: "tokenTextSplitter",
  inputs: {
    encodingName: param("encodingName", toText),
    chunkSize: param("chunkSize", toInteger),
    chunkOverlap: param("chunkOverlap", toInteger),
  },
  outputs: { tokenTextSplitter: "textSplitter" },
});
