import { defineNode } from "../define";
import { openApiToolkitDefinition } from "./definition";
import { buildOpenApiToolkit } from "./runtime";

export const openApiToolkit = defineNode({
  definition: openApiToolkitDefinition,
  runtime: buildOpenApiToolkit,
});
