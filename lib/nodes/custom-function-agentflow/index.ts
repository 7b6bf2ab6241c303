import { defineNode } from "../define";
import { customFunctionAgentflowDefinition } from "./definition";
import { buildCustomFunctionStep } from "./runtime";

export const customFunctionAgentflow = defineNode({
  definition: customFunctionAgentflowDefinition,
  runtime: buildCustomFunctionStep,
});
