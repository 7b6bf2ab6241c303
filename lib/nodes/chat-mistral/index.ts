import { defineNode } from "../define";
import { buildHostedChat } from "../shared/hosted-chat";
import { chatMistralAIDefinition } from "./definition";

export const chatMistralAI = defineNode({ definition: chatMistralAIDefinition, runtime: buildHostedChat });
