import { defineNode } from "../define";
import { qdrantStoreDefinition } from "./definition";
import { buildQdrantStore } from "./runtime";

export const qdrantStore = defineNode({ definition: qdrantStoreDefinition, runtime: buildQdrantStore });
