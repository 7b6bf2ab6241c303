import { defineNode } from "../define";
import { conditionAgentflowDefinition } from "./definition";
import { buildConditionStep } from "./runtime";

export const conditionAgentflow = defineNode({ definition: conditionAgentflowDefinition, runtime: buildConditionStep });
