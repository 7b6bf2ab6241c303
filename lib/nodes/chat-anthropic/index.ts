import { defineNode } from "../define";
import { chatAnthropicDefinition } from "./definition";
import { buildChatAnthropic } from "./runtime";

export const chatAnthropic = defineNode({ definition: chatAnthropicDefinition, runtime: buildChatAnthropic });
