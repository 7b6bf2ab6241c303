import { defineNode } from "../define";
import { reactAgentChatDefinition } from "./definition";
import { buildReactAgentChat } from "./runtime";

export const reactAgentChat = defineNode({ definition: reactAgentChatDefinition, runtime: buildReactAgentChat });
