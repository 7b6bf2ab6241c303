import { defineNode } from "../define";
import { toolAgentflowDefinition } from "./definition";
import { buildToolStep } from "./runtime";

export const toolAgentflow = defineNode({ definition: toolAgentflowDefinition, runtime: buildToolStep });
