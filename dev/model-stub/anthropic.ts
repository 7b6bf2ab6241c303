/**
 * Anthropic's Messages API (`POST /v1/messages`) for the model stub: the request is read into the
 * brain's OpenAI-shaped messages and tools, and the brain's reply written back as an Anthropic
 * message, or as its SSE events when `stream` is set.
 */
import { randomBytes } from "node:crypto";
import type { BrainReply, ChatMessage, ContentPart, ToolDefinition } from "./brain";
import { textOf } from "./brain";

type ContentReply = Extract<BrainReply, { content: string }>;
type ToolCallReply = Extract<BrainReply, { toolCalls: unknown }>;

type Block = { type: string; text?: string; content?: unknown; tool_use_id?: string; [key: string]: unknown };
type AnthropicMessage = { role: "user" | "assistant"; content: string | Block[] };

/** One event of a streamed message: `event: <type>` and its JSON data. */
export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

function toParts(content: string | Block[]): string | ContentPart[] {
  if (typeof content === "string") return content;
  return content.map((b) =>
    b.type === "text" ? { type: "text", text: String(b.text ?? "") } : { ...b, type: b.type },
  );
}

/** The request's system prompt and messages as the brain reads them (tool results become tool messages). */
export function readAnthropicMessages(body: Record<string, unknown>): ChatMessage[] {
  const out: ChatMessage[] = [];
  const system = body.system as string | Block[] | undefined;
  if (system) out.push({ role: "system", content: toParts(system) });
  for (const m of (body.messages ?? []) as AnthropicMessage[]) {
    const blocks = typeof m.content === "string" ? [] : m.content;
    for (const r of blocks.filter((b) => b.type === "tool_result")) {
      out.push({
        role: "tool",
        tool_call_id: r.tool_use_id,
        content: typeof r.content === "string" ? r.content : textOf(toParts((r.content ?? []) as Block[])),
      });
    }
    const rest = typeof m.content === "string" ? m.content : blocks.filter((b) => b.type !== "tool_result");
    if (typeof rest === "string" || rest.length > 0) out.push({ role: m.role, content: toParts(rest) });
  }
  return out;
}

/** The request's tools as the brain reads them. */
export function readAnthropicTools(body: Record<string, unknown>): ToolDefinition[] {
  const tools = Array.isArray(body.tools)
    ? (body.tools as { name?: string; description?: string; input_schema?: ToolDefinition["parameters"] }[])
    : [];
  return tools.map((t) => ({
    name: String(t.name),
    description: String(t.description ?? ""),
    parameters: t.input_schema ?? {},
  }));
}

function contentBlocks(reply: ContentReply | ToolCallReply): Block[] {
  if ("content" in reply) return [{ type: "text", text: reply.content }];
  return reply.toolCalls.map((c) => ({
    type: "tool_use",
    id: `toolu_${randomBytes(9).toString("base64url")}`,
    name: c.name,
    input: c.arguments,
  }));
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

function usage(messages: ChatMessage[], reply: ContentReply | ToolCallReply) {
  const input = messages.reduce((n, m) => n + words(textOf(m.content)) + 4, 0);
  return {
    input_tokens: input,
    output_tokens: Math.max(1, words("content" in reply ? reply.content : JSON.stringify(reply.toolCalls))),
  };
}

/** The non-streaming `message` object. */
export function anthropicMessage(reply: ContentReply | ToolCallReply, model: string, messages: ChatMessage[]) {
  return {
    id: `msg_stub${randomBytes(8).toString("hex")}`,
    type: "message",
    role: "assistant",
    model,
    content: contentBlocks(reply),
    stop_reason: "content" in reply ? "end_turn" : "tool_use",
    stop_sequence: null,
    usage: usage(messages, reply),
  };
}

/** Text split the way Anthropic streams it: each word with the space before it. */
export function splitLeading(text: string): string[] {
  const pieces = text.match(/\s*\S+/g) ?? [];
  const tail = /\s+$/.exec(text)?.[0];
  if (tail && pieces.length > 0) pieces[pieces.length - 1] += tail;
  return pieces.length > 0 ? pieces : text ? [text] : [];
}

function blockEvents(block: Block, index: number): SseEvent[] {
  if (block.type === "text") {
    return [
      { event: "content_block_start", data: { index, content_block: { type: "text", text: "" } } },
      ...splitLeading(String(block.text)).map((text) => ({
        event: "content_block_delta",
        data: { index, delta: { type: "text_delta", text } },
      })),
      { event: "content_block_stop", data: { index } },
    ];
  }
  return [
    { event: "content_block_start", data: { index, content_block: { ...block, input: {} } } },
    {
      event: "content_block_delta",
      data: { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } },
    },
    { event: "content_block_stop", data: { index } },
  ];
}

/** The events of one streamed message, in order (each data carries its own `type`). */
export function anthropicEvents(
  reply: ContentReply | ToolCallReply,
  model: string,
  messages: ChatMessage[],
): SseEvent[] {
  const { content, usage: used, stop_reason, ...head } = anthropicMessage(reply, model, messages);
  const events: SseEvent[] = [
    {
      event: "message_start",
      data: {
        message: {
          ...head,
          content: [],
          stop_reason: null,
          usage: { input_tokens: used.input_tokens, output_tokens: 0 },
        },
      },
    },
    ...content.flatMap(blockEvents),
    {
      event: "message_delta",
      data: { delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: used.output_tokens } },
    },
    { event: "message_stop", data: {} },
  ];
  return events.map((e) => ({ event: e.event, data: { type: e.event, ...e.data } }));
}
