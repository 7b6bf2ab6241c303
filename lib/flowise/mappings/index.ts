import type { FlowiseMapping } from "../types";
import { bufferMemory } from "./bufferMemory";
import { bufferWindowMemory } from "./bufferWindowMemory";
import { chainTool } from "./chainTool";
import { chatAnthropic } from "./chatAnthropic";
import { chatOpenAI } from "./chatOpenAI";
import { chatPromptTemplate } from "./chatPromptTemplate";
import { conversationChain } from "./conversationChain";
import { llmChain } from "./llmChain";
import { openApiChain } from "./openApiChain";
import { promptTemplate } from "./promptTemplate";
import { toolAgent } from "./toolAgent";

/**
 * Every Flowise node type we import, one module each (how to add one: ../types.ts). A Flowise
 * type not listed here is refused by name (400 import_unmapped), never saved half-imported.
 */
export const flowiseMappings: readonly FlowiseMapping[] = [
  chatOpenAI,
  chatAnthropic,
  promptTemplate,
  chatPromptTemplate,
  llmChain,
  conversationChain,
  openApiChain,
  bufferMemory,
  bufferWindowMemory,
  chainTool,
  toolAgent,
];
