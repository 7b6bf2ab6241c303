import { defineNode } from "../define";
import { chainToolDefinition } from "./definition";
import { buildChainTool } from "./runtime";

export const chainTool = defineNode({ definition: chainToolDefinition, runtime: buildChainTool });
