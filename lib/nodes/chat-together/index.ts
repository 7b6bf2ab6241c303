import { defineNode } from "../define";
import { buildHostedChat } from "../shared/hosted-chat";
import { chatTogetherAIDefinition } from "./definition";

export const chatTogetherAI = defineNode({ definition: chatTogetherAIDefinition, runtime: buildHostedChat });
