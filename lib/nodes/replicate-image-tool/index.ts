import { defineNode } from "../define";
import { replicateImageToolDefinition } from "./definition";
import { buildReplicateImageTool } from "./runtime";

export const replicateImageTool = defineNode({
  definition: replicateImageToolDefinition,
  runtime: buildReplicateImageTool,
});
