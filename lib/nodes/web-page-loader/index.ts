import { defineNode } from "../define";
import { webPageLoaderDefinition } from "./definition";
import { buildWebPageLoader } from "./runtime";

export const webPageLoader = defineNode({ definition: webPageLoaderDefinition, runtime: buildWebPageLoader });
