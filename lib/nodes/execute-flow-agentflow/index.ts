import { defineNode } from "../define";
import { executeFlowAgentflowDefinition } from "./definition";
import { buildExecuteFlowStep } from "./runtime";

export const executeFlowAgentflow = defineNode({
  definition: executeFlowAgentflowDefinition,
  runtime: buildExecuteFlowStep,
});
