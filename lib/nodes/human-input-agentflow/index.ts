import { defineNode } from "../define";
import { humanInputAgentflowDefinition } from "./definition";
import { buildHumanInputStep } from "./runtime";

export const humanInputAgentflow = defineNode({
  definition: humanInputAgentflowDefinition,
  runtime: buildHumanInputStep,
});
