import { defineNode } from "../define";
import { openApiChainDefinition } from "./definition";
import { buildOpenApiChain } from "./runtime";

export const openApiChain = defineNode({ definition: openApiChainDefinition, runtime: buildOpenApiChain });
