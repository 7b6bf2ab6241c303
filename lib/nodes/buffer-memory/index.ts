import { defineNode } from "../define";
import { bufferMemoryDefinition } from "./definition";
import { buildBufferMemory } from "./runtime";

export const bufferMemory = defineNode({ definition: bufferMemoryDefinition, runtime: buildBufferMemory });
