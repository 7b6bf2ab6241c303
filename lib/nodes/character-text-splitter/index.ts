import { CharacterTextSplitter } from "@langchain/textsplitters";
import { defineNode } from "../define";
import { checkChunking } from "../shared/splitters";
import { characterTextSplitterDefinition } from "./definition";

/** Escapes as builders type them ("\n", "\t") become the characters. */
const typedEscapes = (s: string) => s.replace(/\\n/g, "\n").replace(/\\t/g, "\t").replace(/\\r/g, "\r");

export const characterTextSplitter = defineNode({
  definition: characterTextSplitterDefinition,
  runtime: async ({ params, label }) => {
    checkChunking(label, params);
    const separator = params.separator ? typedEscapes(params.separator) : "\n\n";
    return new CharacterTextSplitter({ chunkSize: params.chunkSize, chunkOverlap: params.chunkOverlap, separator });
  },
});
