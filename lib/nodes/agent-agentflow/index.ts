import { defineNode } from "../define";
import { agentAgentflowDefinition } from "./definition";
import { buildAgentStep } from "./runtime";

export const agentAgentflow = defineNode({ definition: agentAgentflowDefinition, runtime: buildAgentStep });
