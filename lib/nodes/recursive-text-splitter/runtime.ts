import { RecursiveCharacterTextSplitter } from "@langchain/textsplitters";
import { AppError } from "@/common/errors";
import type { RuntimeOf } from "../define";
import type { recursiveTextSplitterDefinition } from "./definition";

/** Builds the splitter; overlap must stay below the chunk size. */
export const buildRecursiveTextSplitter: RuntimeOf<typeof recursiveTextSplitterDefinition> = async ({
  params,
  label,
}) => {
  const { chunkSize, chunkOverlap } = params;
  if (chunkOverlap >= chunkSize) {
    throw new AppError(
      "invalid_graph",
      `${label}: chunk overlap (${chunkOverlap}) must be smaller than chunk size (${chunkSize}).`,
    );
  }
  const separators = Array.isArray(params.separators) ? params.separators.map(String) : undefined;
  return new RecursiveCharacterTextSplitter({ chunkSize, chunkOverlap, ...(separators ? { separators } : {}) });
};
