import { defineMapping, param, toInteger, toJson } from "../rules";

/** Flowise "Recursive Character Text Splitter" → our Recursive Text Splitter. */
export const recursiveCharacterTextSplitter = defineMapping({
  flowise: "recursiveCharacterTextSplitter",
  type: "recursiveTextSplitter",
  inputs: {
    chunkSize: param("chunkSize", toInteger),
    chunkOverlap: param("chunkOverlap", toInteger),
    separators: param("separators", toJson),
  },
  outputs: { recursiveCharacterTextSplitter: "textSplitter" },
});
