import { defineNode } from "../define";
import { mcpToolsDefinition } from "./definition";
import { buildMcpTools, toolOptions } from "./runtime";

export const mcpTools = defineNode({
  definition: mcpToolsDefinition,
  runtime: buildMcpTools,
  loadOptions: { tools: toolOptions },
});
