/**
 * "Brains" decide what the scripted OpenAI-compatible stub answers. A brain sees the chat request
 * (messages and offered tools, already normalised) and returns text or tool calls.
 */
import { readProductIntent } from "./product-intent";
import { structuredAnswer } from "./structured";

/** One message as sent to /v1/chat/completions (OpenAI wire format, loosely typed). */
export interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool" | "function";
  content?: string | ContentPart[] | null;
  name?: string;
  tool_call_id?: string;
  tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
}

export type ContentPart = { type: string; text?: string; image_url?: unknown; [key: string]: unknown };

/** A tool offered to the model: from `tools` (type function) or the legacy `functions`. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: { type?: string; properties?: Record<string, unknown>; required?: string[] };
}

export interface BrainRequest {
  model: string;
  messages: ChatMessage[];
  tools: ToolDefinition[];
  /** The raw JSON body, for brains that need more. */
  body: Record<string, unknown>;
  /**
   * Set by the stub: aborts when the client closes the connection before the answer is sent (the
   * caller's run was cut off). A brain that waits on something can wait on this too.
   */
  signal?: AbortSignal;
}

/** How an answer goes out, for tests of slow or broken models. */
export interface Delivery {
  /** A pause before each streamed chunk after the first (a model producing tokens at a pace). */
  chunkMs?: number;
  /** The answer never ends: a stream stops before its last chunk, a JSON answer is never sent. */
  hang?: boolean;
}

/**
 * The token counts a reply reports (OpenAI wire): these figures, `null` for none (a provider that
 * reports no usage), or, when absent, a rough count of words (wire.ts estimateUsage).
 */
export type ReportedUsage = { prompt_tokens: number; completion_tokens: number } | null;

export type BrainReply =
  | { content: string; delivery?: Delivery; usage?: ReportedUsage }
  | { toolCalls: { name: string; arguments: Record<string, unknown> }[]; delivery?: Delivery; usage?: ReportedUsage }
  /** Answer an OpenAI-style error with this HTTP status instead of a completion. */
  | { error: { status: number; message: string } };

export type Brain = (request: BrainRequest) => BrainReply | Promise<BrainReply>;

/** The plain text of a message's content (text parts joined). */
export function textOf(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((p) => (typeof p.text === "string" ? p.text : ""))
    .filter(Boolean)
    .join("\n");
}

/** How many image parts a message's content carries. */
export function imageCount(content: ChatMessage["content"]): number {
  if (!Array.isArray(content)) return 0;
  return content.filter((p) => p.type === "image_url" || p.type === "input_image" || p.type === "image").length;
}

/** Returns the replies in order, one per completion request; throws when they run out. */
export function scriptedBrain(replies: BrainReply[]): Brain {
  const queue = [...replies];
  return () => {
    const next = queue.shift();
    if (!next) throw new Error("scriptedBrain: no scripted replies left");
    return next;
  };
}

const PRODUCT_TOOL = /product|shop|catalog/i;

function findProductTool(tools: ToolDefinition[]): ToolDefinition | undefined {
  return tools.find((t) => PRODUCT_TOOL.test(t.name)) ?? tools.find((t) => PRODUCT_TOOL.test(t.description));
}

/** A Chain Tool (and any DynamicTool) takes one string `input`; an OpenAPI operation takes fields. */
function isSingleInputTool(tool: ToolDefinition): boolean {
  const keys = Object.keys(tool.parameters?.properties ?? {});
  return keys.length === 1 && keys[0] === "input";
}

function productToolArguments(tool: ToolDefinition, userText: string): Record<string, unknown> | undefined {
  if (isSingleInputTool(tool)) return { input: userText };
  const intent = readProductIntent(userText);
  if (!intent) return undefined;
  const query: Record<string, unknown> = { countryCode: intent.countryCode, q: intent.q };
  if (intent.minPrice !== undefined) query.min_price = intent.minPrice;
  if (intent.maxPrice !== undefined) query.max_price = intent.maxPrice;
  // LangChain's createOpenAPIChain nests query parameters under `params`.
  return tool.parameters?.properties?.params ? { params: query } : query;
}

type ToolOutcome = { products: { name?: string; price?: string }[] } | { error: string } | { other: string };

function readToolOutcome(text: string): ToolOutcome {
  const trimmed = text.trim();
  if (/^\d{3}:/.test(trimmed) || /^(error|failed)\b/i.test(trimmed)) return { error: trimmed };
  try {
    const data = JSON.parse(trimmed) as { products?: unknown; error?: { message?: string } | string };
    if (Array.isArray(data?.products)) return { products: data.products as { name?: string; price?: string }[] };
    if (data?.error) return { error: typeof data.error === "string" ? data.error : (data.error.message ?? trimmed) };
  } catch {
    // Not JSON: fall through.
  }
  if (/\b(error|unavailable|failed|timed out|forbidden)\b/i.test(trimmed)) return { error: trimmed };
  return { other: trimmed };
}

/** A short natural-language summary of a tool result (products found, or the failure). */
export function summariseToolResult(text: string): string {
  const outcome = readToolOutcome(text);
  if ("error" in outcome)
    return `Sorry, the product search failed: ${outcome.error.slice(0, 200)}. Please try again later.`;
  // Plain text is already an answer (e.g. an OpenAPI chain's summary under a Chain Tool): pass it on.
  if ("other" in outcome) return outcome.other.slice(0, 600);
  if (outcome.products.length === 0)
    return "I couldn't find any products matching that. Try another product or price range.";
  const listed = outcome.products
    .slice(0, 3)
    .map((p) => `${p.name ?? "Unnamed product"} (${p.price ?? "price unknown"})`);
  const count = outcome.products.length;
  return `I found ${count} product${count === 1 ? "" : "s"}: ${listed.join(", ")}.`;
}

function rememberedName(messages: ChatMessage[]): string | undefined {
  let name: string | undefined;
  for (const m of messages) {
    for (const match of textOf(m.content).matchAll(/\bmy name is ([\p{L}][\p{L}'-]*)/giu)) name = match[1];
  }
  return name;
}

/** Friendly replies for anything that is not a shopping request; remembers "my name is X". */
export function smallTalk(messages: ChatMessage[]): string {
  const latest = [...messages].reverse().find((m) => m.role === "user");
  const text = textOf(latest?.content).trim();
  const images = imageCount(latest?.content);
  if (images > 0) return `I see ${images} image${images === 1 ? "" : "s"}.${text ? ` You asked: "${text}".` : ""}`;
  const introduced = /\bmy name is ([\p{L}][\p{L}'-]*)/iu.exec(text);
  if (introduced) return `Nice to meet you, ${introduced[1]}! How can I help you today?`;
  if (/\bwhat(?:'s| is) my name\b|\bwho am i\b/i.test(text)) {
    const earlier = rememberedName(messages.slice(0, latest ? messages.lastIndexOf(latest) : messages.length));
    return earlier ? `Your name is ${earlier}.` : "I don't know your name yet. Tell me and I'll remember it.";
  }
  // Lets a test see which system message (which saved version of a flow) answered.
  if (/\bwhat are your instructions\b/i.test(text)) {
    const system = textOf(messages.find((m) => m.role === "system")?.content).trim();
    return system ? `My instructions: "${system.slice(0, 300)}"` : "I have no instructions.";
  }
  if (/^(hi|hello|hey|good (morning|afternoon|evening))\b/i.test(text)) {
    return 'Hello! I can chat, or search for products: try "find me a laptop under 1500 in Germany".';
  }
  return text
    ? `You said: "${text}". I'm the Switchyard demo assistant; ask me to find a product any time.`
    : "Hello! How can I help?";
}

const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/**
 * Answers a retrieval chain from the context in its system message, so a test sees what was
 * retrieved: the context line sharing the most words with the question, quoted; "I don't know."
 * when none does. Undefined when the request carries no retrieved context.
 */
export function answerFromContext(messages: ChatMessage[], question: string): string | undefined {
  const system = textOf(messages.find((m) => m.role === "system")?.content);
  const at = system.indexOf("\nContext:\n");
  if (at < 0) return undefined;
  const asked = wordsOf(question);
  let best = { line: "", score: 0 };
  for (const line of system
    .slice(at + 10)
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)) {
    const score = [...wordsOf(line)].filter((w) => asked.has(w)).length;
    if (score > best.score) best = { line, score };
  }
  return best.score > 0 ? `According to the documents: ${best.line}` : "I don't know.";
}

/**
 * The default deterministic brain for the product-search demo: calls an offered product tool for
 * shopping requests, summarises tool results, answers retrieval chains from their context and
 * structured-output requests from their schema (./structured.ts), and otherwise makes small talk.
 */
export const demoBrain: Brain = (request) => {
  const last = request.messages.at(-1);
  if (last && (last.role === "tool" || last.role === "function"))
    return { content: summariseToolResult(textOf(last.content)) };
  const structured = structuredAnswer(request.messages);
  if (structured) return { content: structured };
  const latestUser = [...request.messages].reverse().find((m) => m.role === "user");
  const userText = textOf(latestUser?.content);
  // A retrieval chain first asks to rephrase a follow-up as a standalone question: keep it as asked.
  const followUp = /Follow-up question: ([\s\S]*?)\nStandalone question:\s*$/.exec(userText);
  if (followUp) return { content: followUp[1].trim() };
  const fromContext = answerFromContext(request.messages, userText);
  if (fromContext) return { content: fromContext };
  // An OpenAPI chain asks for an answer from the API's response in a user message.
  const apiResponse = /API response of [\w-]+:\n([\s\S]*)$/.exec(userText);
  if (apiResponse) return { content: summariseToolResult(apiResponse[1]) };
  const tool = findProductTool(request.tools);
  if (tool && readProductIntent(userText)) {
    const args = productToolArguments(tool, userText);
    if (args) return { toolCalls: [{ name: tool.name, arguments: args }] };
  }
  return { content: smallTalk(request.messages) };
};
