import { randomUUID } from "node:crypto";
import { AppError } from "@/common/errors";
import type { Caller } from "@/common/access/callers";
import { chatflowScope, mayAct, ownerFilter } from "@/common/access/permissions";
import type {
  ChatCompletion,
  ChatCompletionRequest,
  ChatUsage,
  ModelList,
  ResponseRequest,
} from "@/common/schemas/openai";
import type { HistoryItem, PredictionBody } from "@/common/schemas/prediction";
import { findChatflowById, listChatflows } from "../db/queries/chatflows";
import { type PredictionResult, type PredictionRun, startPrediction } from "./predictions";

/**
 * The OpenAI-compatible API: a flow is a model. The last user message is the question. A session
 * named by the caller (`user`, or the X-Session-Id header) is remembered by the flow's memory between
 * calls, so its earlier messages are the server's and the request's are not read again; without one,
 * each call is a fresh session whose history is the request's earlier messages (OpenAI's stateless
 * way). System and developer messages are not passed on: a flow has its own instructions.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Flows the caller may run as models (admins: all; builders and their keys: their own, in scope). */
async function runnableFlows(caller: Caller) {
  return (await listChatflows({ ids: chatflowScope(caller), ownerId: ownerFilter(caller, "chatflow.openai") })).items;
}

/** GET /models: the flows the caller may run, newest first. */
export async function listModels(caller: Caller): Promise<ModelList> {
  const flows = await runnableFlows(caller);
  return {
    object: "list",
    data: flows.map((f) => ({
      id: f.id,
      object: "model" as const,
      created: Math.floor(f.createdAt.getTime() / 1000),
      owned_by: "switchyard",
      name: f.name,
    })),
  };
}

/** A `model` as sent: the id of a flow the caller may run as a model, or a name one such flow carries. */
async function flowIdOf(model: string, caller: Caller): Promise<string> {
  if (UUID.test(model)) {
    const row = await findChatflowById({ id: model.toLowerCase() });
    const scope = chatflowScope(caller);
    if (row && mayAct(caller, "chatflow.openai", row.ownerId) && (!scope || scope.includes(row.id))) return row.id;
  }
  const named = (await runnableFlows(caller)).filter((f) => f.name === model);
  if (named.length === 1) return named[0].id;
  if (named.length > 1)
    throw new AppError(
      "validation_failed",
      `model: ${named.length} of your flows are named "${model}"; send one's id (GET /api/v1/openai/models lists them).`,
      { details: [{ field: "body.model", message: "ambiguous name" }] },
    );
  throw new AppError(
    "not_found",
    `model: no flow with the id or name "${model}" that this key may run (GET /api/v1/openai/models lists them).`,
    { details: [{ field: "body.model", message: "unknown model" }] },
  );
}

type Content = ChatCompletionRequest["messages"][number]["content"];

/** The text of a message's content; a part that is not text is refused by name. */
function textOf(content: Content | undefined, where: string): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  return content
    .map((part, j) => {
      if (part.type === "text" || part.type === "input_text" || part.type === "output_text") return part.text ?? "";
      throw new AppError(
        "validation_failed",
        `${where}.content[${j}]: parts of type "${part.type}" are not supported; a flow takes text here.`,
        { details: [{ field: `body.${where}.content[${j}].type`, message: "unsupported content part" }] },
      );
    })
    .join("");
}

type Turn = { role: string; content?: Content };

/** The question (the last message, which must be the user's) and the turns before it as history. */
function conversationOf(turns: Turn[], where: string): { question: string; history: HistoryItem[] } {
  const last = turns.length - 1;
  if (turns[last]?.role !== "user")
    throw new AppError("validation_failed", `${where}: the last message must be the user's (role "user").`, {
      details: [{ field: `body.${where}[${last}].role`, message: 'must be "user"' }],
    });
  const question = textOf(turns[last].content, `${where}[${last}]`).trim();
  if (!question)
    throw new AppError("validation_failed", `${where}[${last}].content: the user's message is empty.`, {
      details: [{ field: `body.${where}[${last}].content`, message: "is empty" }],
    });
  const history: HistoryItem[] = [];
  turns.slice(0, last).forEach((t, i) => {
    if (t.role !== "user" && t.role !== "assistant") return;
    const content = textOf(t.content, `${where}[${i}]`);
    if (content) history.push({ role: t.role === "user" ? "userMessage" : "apiMessage", content });
  });
  return { question, history };
}

export interface CompatRequest {
  caller: Caller;
  /** X-Session-Id, when the client names its session by header. */
  sessionHeader: string | null;
  origin: string | null;
  clientIp: string;
  requestId?: string;
}

/** A started flow run answering an OpenAI-style request. */
export interface CompatRun {
  run: PredictionRun;
  model: string;
  /** For usage when the flow's model reports none: characters of what was sent. */
  promptChars: number;
}

async function startRun(
  model: string,
  conversation: { question: string; history: HistoryItem[] },
  session: string | undefined,
  stream: boolean,
  ctx: CompatRequest,
): Promise<CompatRun> {
  const chatflowId = await flowIdOf(model, ctx.caller);
  const body: PredictionBody = {
    question: conversation.question,
    streaming: stream,
    // A named session is remembered by the flow; the request's own earlier turns would repeat it.
    ...(session ? { overrideConfig: { sessionId: session } } : { history: conversation.history }),
  };
  const run = await startPrediction(
    {
      chatflowId,
      body,
      caller: ctx.caller,
      origin: ctx.origin,
      clientIp: ctx.clientIp,
      ...(ctx.requestId ? { requestId: ctx.requestId } : {}),
    },
    ctx.caller.kind === "user" ? "INTERNAL" : "EXTERNAL",
  );
  const promptChars =
    conversation.question.length + (session ? 0 : conversation.history.reduce((n, h) => n + h.content.length, 0));
  return { run, model, promptChars };
}

const SESSION = /^[\w.:@-]{1,200}$/;

/** The session a request names (`user`, else the header), checked like a prediction's sessionId. */
function sessionOf(user: string | undefined, header: string | null): string | undefined {
  const session = user ?? header ?? undefined;
  if (session !== undefined && !SESSION.test(session))
    throw new AppError(
      "validation_failed",
      `${user !== undefined ? "user" : "X-Session-Id"}: a session id may hold letters, digits and . _ : @ - only (at most 200).`,
      { details: [{ field: user !== undefined ? "body.user" : "header.x-session-id", message: "invalid session id" }] },
    );
  return session;
}

/** POST /chat/completions: the flow's run, started (4xx thrown here, before any answer begins). */
export function startChatCompletion(req: ChatCompletionRequest, ctx: CompatRequest): Promise<CompatRun> {
  const session = sessionOf(req.user, ctx.sessionHeader);
  return startRun(req.model, conversationOf(req.messages, "messages"), session, !!req.stream, ctx);
}

/** POST /responses: text input, or message items (a role defaults to user). */
export function startResponse(req: ResponseRequest, ctx: CompatRequest): Promise<CompatRun> {
  const session = sessionOf(req.user, ctx.sessionHeader);
  const turns: Turn[] =
    typeof req.input === "string"
      ? [{ role: "user", content: req.input }]
      : req.input.map((item, i) => {
          if (item.type !== undefined && item.type !== "message")
            throw new AppError(
              "validation_failed",
              `input[${i}]: items of type "${item.type}" are not supported; send messages.`,
              { details: [{ field: `body.input[${i}].type`, message: "unsupported input item" }] },
            );
          return { role: item.role ?? "user", content: item.content ?? "" };
        });
  return startRun(req.model, conversationOf(turns, "input"), session, !!req.stream, ctx);
}

/** Tokens as a model would count them, roughly (4 characters each), when the flow's model reports none. */
const estimateTokens = (chars: number) => Math.ceil(chars / 4);

/** The answer's usage: the flow's models' own counts where they reported them, else an estimate. */
export function usageOf(result: Pick<PredictionResult, "text" | "usage">, promptChars: number): ChatUsage {
  const prompt = result.usage?.promptTokens ?? estimateTokens(promptChars);
  const completion = result.usage?.completionTokens ?? estimateTokens(result.text.length);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** An id for a completion: the stored message's, so a client can find it in the Message API. */
export function completionId(prefix: "chatcmpl" | "resp" | "msg", chatMessageId?: string): string {
  return `${prefix}-${(chatMessageId || randomUUID()).replaceAll("-", "")}`;
}

/** The JSON answer of a chat completion. */
export function chatCompletionOf(compat: CompatRun, result: PredictionResult, created: number): ChatCompletion {
  return {
    id: completionId("chatcmpl", result.chatMessageId),
    object: "chat.completion",
    created,
    model: compat.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: result.text, refusal: null },
        logprobs: null,
        finish_reason: "stop",
      },
    ],
    usage: usageOf(result, compat.promptChars),
    session_id: result.sessionId,
    chat_id: result.chatId,
  };
}

/** The JSON answer of the Responses API (what `openai`'s `responses.create` reads). */
export function responseOf(compat: CompatRun, result: PredictionResult, created: number, id: string) {
  const usage = usageOf(result, compat.promptChars);
  return {
    id,
    object: "response" as const,
    created_at: created,
    status: "completed" as const,
    model: compat.model,
    output: [
      {
        type: "message" as const,
        id: completionId("msg", result.chatMessageId),
        status: "completed" as const,
        role: "assistant" as const,
        content: [{ type: "output_text" as const, text: result.text, annotations: [] }],
      },
    ],
    output_text: result.text,
    error: null,
    incomplete_details: null,
    usage: {
      input_tokens: usage.prompt_tokens,
      output_tokens: usage.completion_tokens,
      total_tokens: usage.total_tokens,
    },
    session_id: result.sessionId,
    chat_id: result.chatId,
  };
}
