import { defineNode } from "../define";
import { webSearchRuntime } from "../shared/web-search";
import { serpAPIDefinition } from "./definition";

export const serpAPI = defineNode({ definition: serpAPIDefinition, runtime: webSearchRuntime("serpApi") });
