/**
 * Turns a brain's reply into OpenAI chat-completion JSON, or into the SSE chunk sequence OpenAI
 * streams (role chunk, content or tool-call deltas, finish chunk, optional usage chunk).
 */
import { randomBytes } from "node:crypto";
import type { BrainReply, ChatMessage, ToolDefinition } from "./brain";
import { textOf } from "./brain";

type ToolCallReply = Extract<BrainReply, { toolCalls: unknown }>;
type ContentReply = Extract<BrainReply, { content: string }>;

/** How the request offered tools: modern `tools` or the legacy `functions` (createOpenAPIChain). */
export type ToolMode = "tools" | "functions";

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

let counter = 0;

/** A completion id that is unique within and across stub processes. */
export function completionId(): string {
  counter += 1;
  return `chatcmpl-stub${counter.toString(36)}${randomBytes(6).toString("hex")}`;
}

function callId(): string {
  return `call_${randomBytes(9).toString("base64url")}`;
}

/** Rough token counts (words), enough for usage fields to be plausible and non-zero. */
export function estimateUsage(messages: ChatMessage[], reply: ContentReply | ToolCallReply): Usage {
  const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
  const prompt = messages.reduce((n, m) => n + words(textOf(m.content)) + 4, 0);
  const out = "content" in reply ? reply.content : JSON.stringify(reply.toolCalls);
  const completion = Math.max(1, words(out));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** The usage a reply reports: its scripted figures, none (`usage: null`), or the rough estimate. */
export function reportedUsage(messages: ChatMessage[], reply: ContentReply | ToolCallReply): Usage | undefined {
  if (reply.usage === null) return undefined;
  if (reply.usage) return { ...reply.usage, total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens };
  return estimateUsage(messages, reply);
}

/** Normalise `tools` and legacy `functions` of a request body into one list. */
export function readTools(body: Record<string, unknown>): { tools: ToolDefinition[]; mode: ToolMode } {
  const tools = Array.isArray(body.tools) ? (body.tools as { type?: string; function?: ToolDefinition }[]) : [];
  if (tools.length > 0) {
    const defs = tools.filter((t) => t.type === "function" && t.function).map((t) => t.function as ToolDefinition);
    return { tools: defs.map(normaliseTool), mode: "tools" };
  }
  const functions = Array.isArray(body.functions) ? (body.functions as ToolDefinition[]) : [];
  return { tools: functions.map(normaliseTool), mode: functions.length > 0 ? "functions" : "tools" };
}

function normaliseTool(t: ToolDefinition): ToolDefinition {
  return { name: String(t.name), description: String(t.description ?? ""), parameters: t.parameters ?? {} };
}

interface Envelope {
  id: string;
  created: number;
  model: string;
}

function envelope(model: string): Envelope {
  return { id: completionId(), created: Math.floor(Date.now() / 1000), model };
}

function assistantMessage(reply: ContentReply | ToolCallReply, mode: ToolMode) {
  if ("content" in reply) return { role: "assistant", content: reply.content, refusal: null };
  if (mode === "functions") {
    const [first] = reply.toolCalls;
    return {
      role: "assistant",
      content: null,
      refusal: null,
      function_call: { name: first.name, arguments: JSON.stringify(first.arguments) },
    };
  }
  const calls = reply.toolCalls.map((c) => ({
    id: callId(),
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.arguments) },
  }));
  return { role: "assistant", content: null, refusal: null, tool_calls: calls };
}

function finishReason(reply: ContentReply | ToolCallReply, mode: ToolMode): string {
  if ("content" in reply) return "stop";
  return mode === "functions" ? "function_call" : "tool_calls";
}

/** The non-streaming `chat.completion` object. */
export function completionJson(
  reply: ContentReply | ToolCallReply,
  mode: ToolMode,
  model: string,
  messages: ChatMessage[],
) {
  const usage = reportedUsage(messages, reply);
  return {
    ...envelope(model),
    object: "chat.completion",
    system_fingerprint: "fp_switchyard_stub",
    choices: [
      { index: 0, message: assistantMessage(reply, mode), logprobs: null, finish_reason: finishReason(reply, mode) },
    ],
    ...(usage ? { usage } : {}),
  };
}

/** Split text into pieces whose concatenation is the text (word by word, spaces kept). */
export function splitForStreaming(text: string, size?: number): string[] {
  if (size) return text.match(new RegExp(`[\\s\\S]{1,${size}}`, "g")) ?? [];
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

function toolDeltas(reply: ToolCallReply, mode: ToolMode): Record<string, unknown>[] {
  const deltas: Record<string, unknown>[] = [];
  reply.toolCalls.forEach((call, index) => {
    if (mode === "functions" && index > 0) return;
    const pieces = splitForStreaming(JSON.stringify(call.arguments), 8);
    if (mode === "functions") {
      deltas.push({ function_call: { name: call.name, arguments: "" } });
      for (const p of pieces) deltas.push({ function_call: { arguments: p } });
      return;
    }
    deltas.push({
      tool_calls: [{ index, id: callId(), type: "function", function: { name: call.name, arguments: "" } }],
    });
    for (const p of pieces) deltas.push({ tool_calls: [{ index, function: { arguments: p } }] });
  });
  return deltas;
}

/** The `chat.completion.chunk` objects of one streamed completion, in order (without [DONE]). */
export function completionChunks(
  reply: ContentReply | ToolCallReply,
  mode: ToolMode,
  model: string,
  messages: ChatMessage[],
  includeUsage: boolean,
) {
  const env = envelope(model);
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    ...env,
    object: "chat.completion.chunk",
    system_fingerprint: "fp_switchyard_stub",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const deltas =
    "content" in reply ? splitForStreaming(reply.content).map((content) => ({ content })) : toolDeltas(reply, mode);
  const chunks: Record<string, unknown>[] = [
    chunk({ role: "assistant", content: "content" in reply ? "" : null, refusal: null }, null),
    ...deltas.map((d) => chunk(d, null)),
    chunk({}, finishReason(reply, mode)),
  ];
  const usage = reportedUsage(messages, reply);
  if (includeUsage && usage) {
    chunks.push({
      ...env,
      object: "chat.completion.chunk",
      system_fingerprint: "fp_switchyard_stub",
      choices: [],
      usage,
    });
  }
  return chunks;
}
