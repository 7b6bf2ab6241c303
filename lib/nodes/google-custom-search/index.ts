import { defineNode } from "../define";
import { webSearchRuntime } from "../shared/web-search";
import { googleCustomSearchDefinition } from "./definition";

export const googleCustomSearch = defineNode({
  definition: googleCustomSearchDefinition,
  runtime: webSearchRuntime("googleCustomSearch"),
});
