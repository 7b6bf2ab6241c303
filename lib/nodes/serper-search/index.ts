import { defineNode } from "../define";
import { webSearchRuntime } from "../shared/web-search";
import { serperDefinition } from "./definition";

export const serper = defineNode({ definition: serperDefinition, runtime: webSearchRuntime("serper") });
