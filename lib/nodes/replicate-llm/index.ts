import { defineNode } from "../define";
import { replicateLLMDefinition } from "./definition";
import { buildReplicateLLM } from "./runtime";

export const replicateLLM = defineNode({ definition: replicateLLMDefinition, runtime: buildReplicateLLM });
