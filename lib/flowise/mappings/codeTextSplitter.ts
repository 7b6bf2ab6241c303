import { defineMapping, param, toInteger, toText } from "../rules";

/** Flowise "Code Text Splitter" → ours (the same LangChain language names). */
export const codeTextSplitter = defineMapping({
  flowise: "codeTextSplitter",
  type: "codeTextSplitter",
  inputs: {
    language: param("language", toText),
    chunkSize: param("chunkSize", toInteger),
    chunkOverlap: param("chunkOverlap", toInteger),
  },
  outputs: { codeTextSplitter: "textSplitter" },
});
