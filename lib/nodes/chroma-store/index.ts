import { defineNode } from "../define";
import { chromaStoreDefinition } from "./definition";
import { buildChromaStore } from "./runtime";

export const chromaStore = defineNode({ definition: chromaStoreDefinition, runtime: buildChromaStore });
