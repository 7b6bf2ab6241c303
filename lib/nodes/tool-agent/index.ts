import { defineNode } from "../define";
import { toolAgentDefinition } from "./definition";
import { buildToolAgent } from "./runtime";

export const toolAgent = defineNode({ definition: toolAgentDefinition, runtime: buildToolAgent });
