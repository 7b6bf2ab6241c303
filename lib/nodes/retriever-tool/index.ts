import { defineNode } from "../define";
import { retrieverToolDefinition } from "./definition";
import { buildRetrieverTool } from "./runtime";

export const retrieverTool = defineNode({ definition: retrieverToolDefinition, runtime: buildRetrieverTool });
