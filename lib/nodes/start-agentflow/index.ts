import { defineNode } from "../define";
import { startAgentflowDefinition } from "./definition";
import { buildStartStep } from "./runtime";

export const startAgentflow = defineNode({ definition: startAgentflowDefinition, runtime: buildStartStep });
