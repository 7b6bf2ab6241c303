import { defineNode } from "../define";
import { pineconeStoreDefinition } from "./definition";
import { buildPineconeStore } from "./runtime";

export const pineconeStore = defineNode({ definition: pineconeStoreDefinition, runtime: buildPineconeStore });
