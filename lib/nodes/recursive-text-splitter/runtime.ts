import { RecursiveCharacterTextSplitter } from "@langchain/textsplitters";
import { AppError } from "../../errors";
import type { NodeRuntime } from "../runtime-types";

/** Builds the splitter; overlap must stay below the chunk size. */
export const buildRecursiveTextSplitter: NodeRuntime = async ({ params, label }) => {
  const chunkSize = params.chunkSize as number;
  const chunkOverlap = params.chunkOverlap as number;
  if (chunkOverlap >= chunkSize) {
    throw new AppError("invalid_graph", `${label}: chunk overlap (${chunkOverlap}) must be smaller than chunk size (${chunkSize}).`);
  }
  const separators = Array.isArray(params.separators) ? params.separators.map(String) : undefined;
  return new RecursiveCharacterTextSplitter({ chunkSize, chunkOverlap, ...(separators ? { separators } : {}) });
};
