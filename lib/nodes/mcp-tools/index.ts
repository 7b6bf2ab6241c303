import { defineNode } from "../define";
import { mcpToolsDefinition } from "./definition";
import { buildMcpTools } from "./runtime";

export const mcpTools = defineNode({ definition: mcpToolsDefinition, runtime: buildMcpTools });
