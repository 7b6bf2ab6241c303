import { defineNode } from "../define";
import { webSearchRuntime } from "../shared/web-search";
import { searxngSearchDefinition } from "./definition";

export const searxngSearch = defineNode({ definition: searxngSearchDefinition, runtime: webSearchRuntime("searxng") });
