import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import type { Runnable } from "@langchain/core/runnables";
import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { z } from "zod";
import { AppError } from "@/common/errors";
import type { AgentflowStep, StepContext } from "../../agentflow/types";
import { toRunError } from "../../flow/run-errors";
import { formatContext, retrieveDocuments } from "../../vector/fusion";
import type { ParamsOf, RuntimeOf } from "../define";
import { listItems, roleMessage, stateUpdates } from "../shared/agentflow";
import { StepToolCalls } from "../shared/agentflow-tools";
import { type MemorySettings, withMemory } from "../shared/memory-summary";
import { messageText } from "../shared/messages";
import type { agentAgentflowDefinition } from "./definition";

type Params = ParamsOf<typeof agentAgentflowDefinition>;

/** The one search tool over the connected stores (fused when several). */
function knowledgeTool(retrievers: BaseRetrieverInterface[], description: string): StructuredToolInterface {
  return tool(
    async ({ query }, config) => {
      const docs = await retrieveDocuments(retrievers, query, config);
      return docs.length ? formatContext(docs) : "No matching documents were found.";
    },
    {
      name: "search_knowledge",
      description,
      schema: z.object({ query: z.string().describe("What to search the knowledge for") }),
    },
  );
}

function memorySettings(params: Params): MemorySettings {
  return {
    enabled: params.agentEnableMemory,
    type: params.agentMemoryType,
    windowSize: params.agentMemoryWindowSize,
    maxTokenLimit: params.agentMemoryMaxTokenLimit,
  };
}

/** The user message: the Input message resolved, else the question unless this run already asked it. */
function userMessage(params: Params, ctx: StepContext): string {
  if (params.agentUserMessage?.trim()) return ctx.resolve(params.agentUserMessage);
  return ctx.runtimeHistory.some((m) => m.role === "userMessage") ? "" : ctx.question;
}

async function ask(model: Runnable<BaseMessage[], AIMessage>, messages: BaseMessage[], ctx: StepContext) {
  try {
    return await model.invoke(messages, { signal: ctx.signal });
  } catch (e) {
    const err = toRunError(e, ctx.signal);
    if (err instanceof AppError && !err.message.includes(ctx.nodeId))
      throw new AppError(err.code, `Node "${ctx.label}" (${ctx.nodeId}): ${err.message}`, { cause: err });
    throw err;
  }
}

/**
 * The tool-calling loop: the model answers or asks for tools; each call is made once (journaled) and
 * its result goes back as a tool message; past `max` rounds the node fails naming the limit.
 */
async function agentLoop(
  model: Runnable<BaseMessage[], AIMessage>,
  tools: Map<string, StructuredToolInterface>,
  messages: BaseMessage[],
  max: number,
  ctx: StepContext,
): Promise<{ content: string; calls: StepToolCalls }> {
  const calls = new StepToolCalls(ctx);
  for (let round = 0; round <= max; round++) {
    const reply = await ask(model, messages, ctx);
    if (!reply.tool_calls?.length) return { content: messageText(reply), calls };
    if (round === max) break;
    messages.push(reply);
    for (const call of reply.tool_calls) {
      const found = tools.get(call.name);
      const output = found
        ? (await calls.call(found, call.args)).output
        : `Tool error: there is no tool named "${call.name}"; available: ${[...tools.keys()].join(", ")}`;
      messages.push(new ToolMessage({ content: output, tool_call_id: call.id ?? call.name, name: call.name }));
    }
  }
  throw new AppError(
    "unprocessable",
    `Agent "${ctx.label}" (${ctx.nodeId}) still asked for tools after ${max} rounds (Max tool rounds): raise the limit or tell the agent to answer sooner.`,
  );
}

/** Agent: role messages, memory and the input message to a tool-calling model; its answer as output. */
export const buildAgentStep: RuntimeOf<typeof agentAgentflowDefinition> = async ({ params, inputs, label }) => {
  const model: BaseChatModel = inputs.model;
  const tools = [...(inputs.tools ?? [])];
  if (inputs.knowledge?.length) tools.push(knowledgeTool(inputs.knowledge, params.agentKnowledgeDescription));
  if (tools.length && typeof model.bindTools !== "function")
    throw new AppError("invalid_graph", `${label}: the connected chat model does not support tool calling.`);
  const byName = new Map(tools.map((t) => [t.name, t]));
  if (byName.size !== tools.length)
    throw new AppError("invalid_graph", `${label}: two tools have the same name; tool names must differ.`);
  const toolModel = (tools.length ? model.bindTools!(tools) : model) as unknown as Runnable<BaseMessage[], AIMessage>;
  const memory = memorySettings(params);
  const step: AgentflowStep = {
    agentflowStep: true,
    // The summary is asked of the model without tools.
    summarisesMemory: memory.enabled && memory.type.startsWith("conversationSummary"),
    async run(ctx) {
      const roles = listItems(params.agentMessages).map((m) =>
        roleMessage(m.role, ctx.resolve(String(m.content ?? ""))),
      );
      const user = userMessage(params, ctx);
      const messages = [...(await withMemory(model, roles, memory, ctx)), ...(user ? [new HumanMessage(user)] : [])];
      const asked = messages.map((m) => ({ role: m.getType(), content: m.content }));
      const { content, calls } = await agentLoop(toolModel, byName, messages, params.agentMaxIterations, ctx);
      ctx.onToken?.(content);
      const output = { content, ...(calls.used.length ? { usedTools: calls.used } : {}) };
      const state = stateUpdates(params.agentUpdateState, ctx, output);
      return {
        input: { messages: asked },
        output,
        ...(state ? { state } : {}),
        answer: true,
        messages: [
          ...(user ? [{ role: "userMessage" as const, content: user }] : []),
          { role: "apiMessage" as const, content },
        ],
        usedTools: calls.used,
      };
    },
  };
  return step;
};
