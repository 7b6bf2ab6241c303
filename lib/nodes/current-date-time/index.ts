import { defineNode } from "../define";
import { currentDateTimeDefinition } from "./definition";
import { buildCurrentDateTime } from "./runtime";

export const currentDateTime = defineNode({ definition: currentDateTimeDefinition, runtime: buildCurrentDateTime });
