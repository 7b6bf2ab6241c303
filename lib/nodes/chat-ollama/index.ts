import { defineNode } from "../define";
import { chatOllamaDefinition } from "./definition";
import { buildChatOllama } from "./runtime";

export const chatOllama = defineNode({ definition: chatOllamaDefinition, runtime: buildChatOllama });
