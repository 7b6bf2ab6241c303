import { defineNode } from "../define";
import { webSearchRuntime } from "../shared/web-search";
import { braveSearchDefinition } from "./definition";

export const braveSearch = defineNode({ definition: braveSearchDefinition, runtime: webSearchRuntime("braveSearch") });
