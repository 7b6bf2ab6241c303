import { defineNode } from "../define";
import { loopAgentflowDefinition } from "./definition";
import { buildLoopStep } from "./runtime";

export const loopAgentflow = defineNode({ definition: loopAgentflowDefinition, runtime: buildLoopStep });
