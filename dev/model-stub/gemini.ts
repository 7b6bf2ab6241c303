/**
 * Google's Generative Language API (`POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`) for the model stub: the request's contents are read into the
 * brain's OpenAI-shaped messages and tools, and the brain's reply written back as Gemini's
 * `GenerateContentResponse`, or as its `data:` events when streaming. Errors in Google's shape.
 */
import { randomBytes } from "node:crypto";
import { splitLeading } from "./anthropic";
import type { BrainReply, ChatMessage, ToolDefinition } from "./brain";
import { textOf } from "./brain";
import { embedText } from "./embeddings";
import type { Reply } from "./reply";

type ContentReply = Extract<BrainReply, { content: string }>;
type ToolCallReply = Extract<BrainReply, { toolCalls: unknown }>;

interface Part {
  text?: string;
  thought?: boolean;
  inlineData?: { mimeType?: string; data?: string };
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name?: string; response?: Record<string, unknown> };
}
interface Content {
  role?: string;
  parts?: Part[];
}

type GeminiMethod = "generateContent" | "streamGenerateContent" | "batchEmbedContents";

/** `/v1beta/models/gemini-2.0-flash:generateContent` → the model and the method, or undefined. */
export function geminiPath(path: string): { model: string; method: GeminiMethod } | undefined {
  const m = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent|batchEmbedContents)$/.exec(
    path,
  );
  return m ? { model: decodeURIComponent(m[1]), method: m[2] as GeminiMethod } : undefined;
}

/** Google's limit on one batchEmbedContents call. */
export const GEMINI_MAX_BATCH = 100;

/**
 * batchEmbedContents: `{requests: [{model: "models/…", content: {parts: [{text}]}, taskType?,
 * outputDimensionality?}]}` → `{embeddings: [{values}]}` in order, the stub's deterministic vectors
 * (outputDimensionality when asked, else the stub's size). Each request must name the path's model,
 * and at most 100 go in one call, as Google checks.
 */
export function geminiEmbeddings(body: Record<string, unknown>, model: string, dimensions: number): Reply {
  const requests = body.requests;
  if (!Array.isArray(requests) || requests.length === 0)
    return geminiError(400, "* BatchEmbedContentsRequest.requests: requests is not specified");
  if (requests.length > GEMINI_MAX_BATCH)
    return geminiError(
      400,
      `* BatchEmbedContentsRequest.requests: at most ${GEMINI_MAX_BATCH} requests can be in one batch`,
    );
  const embeddings = [];
  for (const [i, r] of (requests as { model?: string; content?: Content; outputDimensionality?: number }[]).entries()) {
    if (r.model !== `models/${model}`)
      return geminiError(400, `* BatchEmbedContentsRequest.requests[${i}].model: does not match the model in the URL`);
    const size =
      typeof r.outputDimensionality === "number" && r.outputDimensionality > 0 ? r.outputDimensionality : dimensions;
    embeddings.push({ values: Array.from(embedText(partsText(r.content?.parts), size)) });
  }
  return { status: 200, json: { embeddings } };
}

function partsText(parts: Part[] | undefined): string {
  return (parts ?? [])
    .filter((p) => typeof p.text === "string")
    .map((p) => p.text)
    .join("");
}

/** A function's answer as the brain reads a tool result: the `output` we send, else the whole response. */
function responseText(response: Record<string, unknown> | undefined): string {
  const output = response?.output ?? response?.content ?? response;
  return typeof output === "string" ? output : JSON.stringify(output ?? {});
}

/** The request's system instruction and contents as the brain reads them. */
export function readGeminiMessages(body: Record<string, unknown>): ChatMessage[] {
  const out: ChatMessage[] = [];
  const system = body.systemInstruction as Content | string | undefined;
  const systemText = typeof system === "string" ? system : partsText(system?.parts);
  if (systemText) out.push({ role: "system", content: systemText });
  let callIndex = 0;
  for (const c of (body.contents ?? []) as Content[]) {
    const parts = c.parts ?? [];
    for (const r of parts.filter((p) => p.functionResponse)) {
      out.push({
        role: "tool",
        name: r.functionResponse?.name,
        tool_call_id: r.functionResponse?.id ?? r.functionResponse?.name,
        content: responseText(r.functionResponse?.response),
      });
    }
    const calls = parts.filter((p) => p.functionCall?.name);
    const text = partsText(parts);
    const images = parts.filter((p) => p.inlineData).length;
    if (c.role === "model") {
      if (!text && !calls.length) continue;
      out.push({
        role: "assistant",
        content: text || null,
        ...(calls.length
          ? {
              tool_calls: calls.map((p) => ({
                id: p.functionCall?.id ?? `call_${callIndex++}`,
                type: "function" as const,
                function: { name: String(p.functionCall?.name), arguments: JSON.stringify(p.functionCall?.args ?? {}) },
              })),
            }
          : {}),
      });
    } else if (text || images) {
      const content = images
        ? [
            { type: "text", text },
            ...Array.from({ length: images }, () => ({ type: "image_url", image_url: { url: "inline" } })),
          ]
        : text;
      out.push({ role: "user", content });
    }
  }
  return out;
}

/** The request's function declarations as the brain reads them. */
export function readGeminiTools(body: Record<string, unknown>): ToolDefinition[] {
  const tools = Array.isArray(body.tools) ? (body.tools as { functionDeclarations?: Record<string, unknown>[] }[]) : [];
  return tools
    .flatMap((t) => t.functionDeclarations ?? [])
    .map((d) => ({
      name: String(d.name),
      description: String(d.description ?? ""),
      parameters: (d.parametersJsonSchema ?? d.parameters ?? {}) as ToolDefinition["parameters"],
    }));
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

function usage(messages: ChatMessage[], reply: ContentReply | ToolCallReply) {
  const prompt = messages.reduce((n, m) => n + words(textOf(m.content)) + 4, 0);
  const candidates = Math.max(1, words("content" in reply ? reply.content : JSON.stringify(reply.toolCalls)));
  return { promptTokenCount: prompt, candidatesTokenCount: candidates, totalTokenCount: prompt + candidates };
}

function parts(reply: ContentReply | ToolCallReply): Part[] {
  if ("content" in reply) return [{ text: reply.content }];
  return reply.toolCalls.map((c) => ({ functionCall: { name: c.name, args: c.arguments } }));
}

function response(model: string, content: Part[], extra: Record<string, unknown> = {}) {
  return {
    candidates: [{ content: { role: "model", parts: content }, index: 0, ...extra }],
    modelVersion: model,
    responseId: randomBytes(8).toString("hex"),
  };
}

/** The whole answer of generateContent. */
export function geminiResponse(reply: ContentReply | ToolCallReply, model: string, messages: ChatMessage[]) {
  return { ...response(model, parts(reply), { finishReason: "STOP" }), usageMetadata: usage(messages, reply) };
}

/** The `data:` events of streamGenerateContent: text word by word; the last carries finishReason and usage. */
export function geminiChunks(reply: ContentReply | ToolCallReply, model: string, messages: ChatMessage[]) {
  const pieces: Part[][] = "content" in reply ? splitLeading(reply.content).map((text) => [{ text }]) : [parts(reply)];
  if (pieces.length === 0) pieces.push([{ text: "" }]);
  return pieces.map((p, i) =>
    i < pieces.length - 1
      ? response(model, p)
      : { ...response(model, p, { finishReason: "STOP" }), usageMetadata: usage(messages, reply) },
  );
}

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

/** An error as Google's APIs answer it: `{"error":{"code","message","status"}}`. */
export function geminiError(status: number, message: string): Reply {
  return { status, json: { error: { code: status, message, status: STATUS_NAMES[status] ?? "UNKNOWN" } } };
}
