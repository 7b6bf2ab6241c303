import { defineNode } from "../define";
import { conditionAgentAgentflowDefinition } from "./definition";
import { buildConditionAgentStep } from "./runtime";

export const conditionAgentAgentflow = defineNode({
  definition: conditionAgentAgentflowDefinition,
  runtime: buildConditionAgentStep,
});
