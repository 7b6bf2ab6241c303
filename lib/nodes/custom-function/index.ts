import { defineNode } from "../define";
import { customFunctionDefinition } from "./definition";
import { buildCustomFunction } from "./runtime";

export const customFunction = defineNode({ definition: customFunctionDefinition, runtime: buildCustomFunction });
