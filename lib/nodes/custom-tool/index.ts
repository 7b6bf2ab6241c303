import { defineNode } from "../define";
import { customToolDefinition } from "./definition";
import { buildCustomTool } from "./runtime";

export const customTool = defineNode({ definition: customToolDefinition, runtime: buildCustomTool });
