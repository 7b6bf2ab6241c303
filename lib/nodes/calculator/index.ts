import { defineNode } from "../define";
import { calculatorDefinition } from "./definition";
import { buildCalculator } from "./runtime";

export const calculator = defineNode({ definition: calculatorDefinition, runtime: buildCalculator });
