import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { AppError } from "@/common/errors";
import { T, type NodeInputSpec } from "@/common/nodes/types";
import type { StepContext } from "../../agentflow/types";
import { toRunError } from "../../flow/run-errors";
import type { HistoryMessage } from "../../flow/types";
import { messageText } from "./messages";

/** Pieces shared by the agentflow nodes (lib/nodes/*-agentflow): inputs, list params, state, model calls. */

/**
 * The control input of every step but Start: the steps it runs after. Optional as an anchor: the
 * first steps inside an Iteration have none, and a top-level step without one is refused by the
 * agentflow's own check (step_not_reachable).
 */
export const flowInputAnchor = {
  kind: "anchor",
  name: "input",
  label: "Runs after",
  accepts: [T.flow],
  list: true,
  optional: true,
} as const satisfies NodeInputSpec;

/** The one output of a step that does not branch. */
export const flowOutput = { name: "output", label: "Output", types: [T.flow] } as const;

/** Flowise's "Update Flow State": `[{ key, value }]`, values may hold variables and `{{ output }}`. */
export function updateStateParam(name: string) {
  return {
    kind: "param",
    name,
    label: "Update flow state",
    type: "json",
    optional: true,
    additional: true,
    description:
      'A list of { "key", "value" }: flow-state keys this node sets after it runs. A value may use variables, and {{ output }} or {{ output.field }} for this node\'s own output.',
  } as const satisfies NodeInputSpec;
}

/** The items of a list param (a JSON array) that are objects; anything else counts as none. */
export function listItems(value: unknown): Record<string, unknown>[] {
  const list = typeof value === "string" ? safeJson(value) : value;
  return Array.isArray(list)
    ? list.filter((i): i is Record<string, unknown> => typeof i === "object" && i !== null)
    : [];
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The flow-state keys a node sets: each `{ key, value }` with its value resolved. */
export function stateUpdates(
  list: unknown,
  ctx: Pick<StepContext, "resolve">,
  output?: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const items = listItems(list).filter((i) => typeof i.key === "string" && i.key !== "");
  if (!items.length) return undefined;
  const extra = output ? { output: output as { content: string } } : undefined;
  return Object.fromEntries(items.map((i) => [i.key as string, ctx.resolve(String(i.value ?? ""), extra)]));
}

/** Our history messages as LangChain messages. */
export function toModelMessages(history: HistoryMessage[]): BaseMessage[] {
  return history.map((m) => (m.role === "userMessage" ? new HumanMessage(m.content) : new AIMessage(m.content)));
}

/** A role message (Flowise's `{ role, content }` of an LLM node) as a LangChain message. */
export function roleMessage(role: unknown, content: string): BaseMessage {
  if (role === "system" || role === "developer") return new SystemMessage(content);
  if (role === "assistant" || role === "ai") return new AIMessage(content);
  return new HumanMessage(content);
}

/**
 * One model call of a step: streamed to `ctx.onToken` when the step's answer is the run's (it ends
 * its path), else whole. Provider failures become upstream AppErrors naming the node.
 */
export async function callModel(model: BaseChatModel, messages: BaseMessage[], ctx: StepContext): Promise<string> {
  try {
    if (!ctx.onToken) return messageText(await model.invoke(messages, { signal: ctx.signal }));
    let text = "";
    for await (const chunk of await model.stream(messages, { signal: ctx.signal })) {
      const token = messageText(chunk);
      if (token) {
        text += token;
        ctx.onToken(token);
      }
    }
    return text;
  } catch (e) {
    const err = toRunError(e, ctx.signal);
    if (err instanceof AppError && !err.message.includes(ctx.nodeId))
      throw new AppError(err.code, `Node "${ctx.label}" (${ctx.nodeId}): ${err.message}`, { cause: err });
    throw err;
  }
}
