import { defineNode } from "../define";
import { csvOutputParserDefinition } from "./definition";
import { buildCsvOutputParser } from "./runtime";

export const csvOutputParser = defineNode({ definition: csvOutputParserDefinition, runtime: buildCsvOutputParser });
