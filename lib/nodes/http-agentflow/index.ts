import { defineNode } from "../define";
import { httpAgentflowDefinition } from "./definition";
import { buildHttpStep } from "./runtime";

export const httpAgentflow = defineNode({ definition: httpAgentflowDefinition, runtime: buildHttpStep });
