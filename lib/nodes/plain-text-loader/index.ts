import { defineNode } from "../define";
import { plainTextLoaderDefinition } from "./definition";
import { buildPlainTextLoader } from "./runtime";

export const plainTextLoader = defineNode({ definition: plainTextLoaderDefinition, runtime: buildPlainTextLoader });
