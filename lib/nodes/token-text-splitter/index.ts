import { defineNode } from "../define";
import { checkChunking, OfflineTokenTextSplitter } from "../shared/splitters";
import { tokenTextSplitterDefinition } from "./definition";

export const tokenTextSplitter = defineNode({
  definition: tokenTextSplitterDefinition,
  runtime: async ({ params, label }) => {
    checkChunking(label, params);
    return new OfflineTokenTextSplitter({
      chunkSize: params.chunkSize,
      chunkOverlap: params.chunkOverlap,
      encodingName: params.encodingName,
    });
  },
});
