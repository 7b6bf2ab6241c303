import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage } from "@langchain/core/messages";
import type { AgentflowStep, StepContext } from "../../agentflow/types";
import type { HistoryMessage } from "../../flow/types";
import type { ParamsOf, RuntimeOf } from "../define";
import { callModel, listItems, roleMessage, stateUpdates } from "../shared/agentflow";
import { type MemorySettings, withMemory } from "../shared/memory-summary";
import type { llmAgentflowDefinition } from "./definition";
import { structuredAnswer, structuredSchema } from "./structured";

type Params = ParamsOf<typeof llmAgentflowDefinition>;

function memorySettings(params: Params): MemorySettings {
  return {
    enabled: params.llmEnableMemory,
    type: params.llmMemoryType,
    windowSize: params.llmMemoryWindowSize,
    maxTokenLimit: params.llmMemoryMaxTokenLimit,
  };
}

/**
 * The user message: the Input message resolved; without one, the question, unless this run already
 * put it to a model (a later LLM of the same run sees it in memory).
 */
function userMessage(params: Params, ctx: StepContext): string {
  if (params.llmUserMessage?.trim()) return ctx.resolve(params.llmUserMessage);
  return ctx.runtimeHistory.some((m) => m.role === "userMessage") ? "" : ctx.question;
}

/** LLM: role messages, memory and the input message to the model; its answer (or structured keys) as output. */
export const buildLlmStep: RuntimeOf<typeof llmAgentflowDefinition> = async ({ params, inputs, label }) => {
  const model: BaseChatModel = inputs.model;
  const schema = structuredSchema(params.llmStructuredOutput, label);
  const memory = memorySettings(params);
  const step: AgentflowStep = {
    agentflowStep: true,
    summarisesMemory: memory.enabled && memory.type.startsWith("conversationSummary"),
    async run(ctx) {
      const roles = listItems(params.llmMessages).map((m) => roleMessage(m.role, ctx.resolve(String(m.content ?? ""))));
      const user = userMessage(params, ctx);
      const messages = [...(await withMemory(model, roles, memory, ctx)), ...(user ? [new HumanMessage(user)] : [])];
      const fields = schema ? await structuredAnswer(model, messages, schema, ctx) : undefined;
      const content = fields ? JSON.stringify(fields) : await callModel(model, messages, ctx);
      if (fields) ctx.onToken?.(content);
      const output = { content, ...(fields ?? {}) };
      const state = stateUpdates(params.llmUpdateState, ctx, output);
      const added: HistoryMessage[] = [
        ...(user ? [{ role: "userMessage" as const, content: user }] : []),
        { role: "apiMessage", content },
      ];
      return {
        input: { messages: messages.map((m) => ({ role: m.getType(), content: m.content })) },
        output,
        ...(state ? { state } : {}),
        answer: true,
        messages: added,
      };
    },
  };
  return step;
};
