import { defineNode } from "../define";
import { buildHostedChat } from "../shared/hosted-chat";
import { chatGroqDefinition } from "./definition";

export const chatGroq = defineNode({ definition: chatGroqDefinition, runtime: buildHostedChat });
