import { defineNode } from "../define";
import { promptTemplateDefinition } from "./definition";
import { buildPromptTemplate } from "./runtime";

export const promptTemplate = defineNode({ definition: promptTemplateDefinition, runtime: buildPromptTemplate });
