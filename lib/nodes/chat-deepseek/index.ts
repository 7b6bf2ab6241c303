import { defineNode } from "../define";
import { buildHostedChat } from "../shared/hosted-chat";
import { chatDeepseekDefinition } from "./definition";

export const chatDeepseek = defineNode({ definition: chatDeepseekDefinition, runtime: buildHostedChat });
