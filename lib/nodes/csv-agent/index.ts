import { defineNode } from "../define";
import { csvAgentDefinition } from "./definition";
import { buildCsvAgent } from "./runtime";

export const csvAgent = defineNode({ definition: csvAgentDefinition, runtime: buildCsvAgent });
