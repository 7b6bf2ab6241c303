import { defineNode } from "../define";
import { azureChatOpenAIDefinition } from "./definition";
import { buildAzureChatOpenAI } from "./runtime";

export const azureChatOpenAI = defineNode({ definition: azureChatOpenAIDefinition, runtime: buildAzureChatOpenAI });
