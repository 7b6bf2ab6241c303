import { defineNode } from "../define";
import { webSearchRuntime } from "../shared/web-search";
import { tavilySearchDefinition } from "./definition";

export const tavilySearch = defineNode({ definition: tavilySearchDefinition, runtime: webSearchRuntime("tavily") });
