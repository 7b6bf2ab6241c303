import { createHash } from "node:crypto";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { NodeInputSpec } from "@/common/nodes/types";
import type { MemorySummary, StepContext } from "../../agentflow/types";
import type { HistoryMessage } from "../../flow/types";
import { estimateTokens } from "../../usage/tally";
import { callModel, toModelMessages } from "./agentflow";

/**
 * The memory of the LLM and Agent steps (Flowise's Agentflow V2 memory types): every earlier message,
 * the last N, a summary of the conversation, or a summary of what no longer fits a token budget
 * followed by the newest messages that do. A summary is made by the step's own model (one more model
 * call, counted in the run's usage like any other) and kept with the run (Execution.position.summaries,
 * carried to the chat's next run), so a later turn folds only the messages added since into it, and
 * makes no call when nothing was added.
 */

export const MEMORY_TYPES = [
  { label: "All messages", name: "allMessages" },
  { label: "Last N messages", name: "windowSize" },
  { label: "Conversation summary", name: "conversationSummary" },
  { label: "Summary + last messages within a token limit", name: "conversationSummaryBuffer" },
] as const;

export type MemoryType = (typeof MEMORY_TYPES)[number]["name"];

/** The memory params of a step (`prefix`: llm or agent), Flowise's names. */
export function memoryParams<P extends string>(prefix: P) {
  return [
    { kind: "param", name: `${prefix}EnableMemory`, label: "Memory", type: "boolean", default: true },
    {
      kind: "param",
      name: `${prefix}MemoryType`,
      label: "Memory type",
      type: "options",
      default: "allMessages",
      options: MEMORY_TYPES,
      description:
        "Summaries are written by this step's model (one more model call when earlier messages were added) and kept with the chat, so unchanged history is not summarised again.",
    },
    {
      kind: "param",
      name: `${prefix}MemoryWindowSize`,
      label: "Last N messages",
      type: "number",
      default: 20,
      integer: true,
      min: 1,
    },
    {
      kind: "param",
      name: `${prefix}MemoryMaxTokenLimit`,
      label: "Max token limit",
      type: "number",
      default: 2000,
      integer: true,
      min: 1,
      description:
        "Summary + last messages: the newest messages within this many tokens (4 characters a token) are sent as they are, older ones as a summary.",
    },
  ] as const satisfies readonly NodeInputSpec[];
}

export interface MemorySettings {
  enabled: boolean;
  type: MemoryType;
  windowSize: number;
  maxTokenLimit: number;
}

/** The instruction of a summary call (exported for tests that script the model). */
export const SUMMARY_INSTRUCTION =
  "You condense conversations for an assistant that will continue them. Write a concise summary keeping the facts, names, numbers, decisions and open questions a later reply may need. Answer with the summary only.";

/** How the answering call is told about the summary. */
export const SUMMARY_PREFIX = "Summary of the earlier conversation: ";

/** How many covered messages identify where a summary ends. */
const TAIL = 4;

function line(m: HistoryMessage): string {
  return `${m.role === "userMessage" ? "User" : "Assistant"}: ${m.content}`;
}

function digest(messages: HistoryMessage[]): string {
  return createHash("sha256")
    .update(JSON.stringify(messages.map((m) => [m.role, m.content])))
    .digest("hex");
}

/**
 * How many of `older` a stored summary covers: the end of its last covered messages, found from the
 * newest end (the history read may have dropped the oldest rows since); 0 when it covers none.
 */
function coveredBy(stored: MemorySummary | undefined, older: HistoryMessage[]): number {
  if (!stored) return 0;
  for (let end = older.length; end >= stored.tailLength && end > 0; end--)
    if (digest(older.slice(end - stored.tailLength, end)) === stored.tail) return end;
  return 0;
}

/** The summary of `older`: the stored one when it covers them all, else one model call folding in the rest. */
async function summaryOf(model: BaseChatModel, older: HistoryMessage[], ctx: StepContext): Promise<string> {
  const stored = ctx.memorySummary?.get();
  const covered = coveredBy(stored, older);
  if (stored && covered === older.length) return stored.summary;
  const added = older.slice(covered);
  const request = covered
    ? `Summary so far:\n${stored!.summary}\n\nMessages to add to it:\n${added.map(line).join("\n")}`
    : `Conversation:\n${added.map(line).join("\n")}`;
  const summary = (
    await callModel(model, [new SystemMessage(SUMMARY_INSTRUCTION), new HumanMessage(request)], {
      ...ctx,
      onToken: undefined,
    })
  ).trim();
  const tailLength = Math.min(TAIL, older.length);
  ctx.memorySummary?.set({ summary, tail: digest(older.slice(older.length - tailLength)), tailLength });
  return summary;
}

function messageTokens(m: HistoryMessage): number {
  return estimateTokens(line(m).length);
}

/** The newest messages within `limit` tokens (at least none), and the older rest. */
export function splitAtTokenLimit(history: HistoryMessage[], limit: number) {
  let used = 0;
  let start = history.length;
  while (start > 0 && used + messageTokens(history[start - 1]) <= limit) used += messageTokens(history[--start]);
  return { older: history.slice(0, start), recent: history.slice(start) };
}

/**
 * The step's role messages and memory, as sent to its model before the input message. A summary goes
 * first as a system message, or after the role messages as a user message when they hold a system
 * message (some providers take one system message only, first).
 */
export async function withMemory(
  model: BaseChatModel,
  roles: BaseMessage[],
  settings: MemorySettings,
  ctx: StepContext,
): Promise<BaseMessage[]> {
  if (!settings.enabled) return roles;
  const history = ctx.chatHistory;
  if (settings.type === "windowSize") return [...roles, ...toModelMessages(history.slice(-settings.windowSize))];
  if (settings.type === "allMessages") return [...roles, ...toModelMessages(history)];
  const { older, recent } =
    settings.type === "conversationSummary"
      ? { older: history, recent: [] }
      : splitAtTokenLimit(history, settings.maxTokenLimit);
  if (!older.length) return [...roles, ...toModelMessages(recent)];
  const text = SUMMARY_PREFIX + (await summaryOf(model, older, ctx));
  const kept = toModelMessages(recent);
  return roles.some((m) => m.getType() === "system")
    ? [...roles, new HumanMessage(text), ...kept]
    : [new SystemMessage(text), ...roles, ...kept];
}
