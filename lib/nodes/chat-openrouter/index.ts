import { defineNode } from "../define";
import { buildHostedChat } from "../shared/hosted-chat";
import { chatOpenRouterDefinition } from "./definition";

export const chatOpenRouter = defineNode({ definition: chatOpenRouterDefinition, runtime: buildHostedChat });
