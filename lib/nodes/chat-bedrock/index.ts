import { defineNode } from "../define";
import { awsChatBedrockDefinition } from "./definition";
import { buildAwsChatBedrock } from "./runtime";

export const awsChatBedrock = defineNode({ definition: awsChatBedrockDefinition, runtime: buildAwsChatBedrock });
