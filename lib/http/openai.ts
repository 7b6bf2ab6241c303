import {
  chatCompletionOf,
  type CompatRequest,
  type CompatRun,
  completionId,
  responseOf,
  usageOf,
} from "../services/openai-compat";
import type { Caller } from "@/common/access/callers";
import { clientIp } from "../access/client-ip";
import { CHATFLOW_VERSION_HEADER } from "./prediction-stream";
import { foreignOrigin } from "./same-origin";
import { json } from "./responses";
import { keepRouteOptions } from "./route-options";
import type { ResponseDoc } from "./route-docs";
import { openAIErrorSchema } from "@/common/schemas/openai";
import { eventStreamResponse, type StreamProblem } from "./sse";

/**
 * The OpenAI-compatible API's answers: JSON, OpenAI's chat-completion chunks (`data: {…}` lines, then
 * `data: [DONE]`), the Responses API's typed events, and errors in OpenAI's shape.
 */

/** What the OpenAI-compatible services need of the HTTP request: caller, session header, origin, client. */
export function compatRequest(req: Request, caller: Caller, requestId: string): CompatRequest {
  return {
    caller,
    sessionHeader: req.headers.get("x-session-id"),
    origin: foreignOrigin(req),
    clientIp: clientIp(req),
    requestId,
  };
}

const now = () => Math.floor(Date.now() / 1000);
const sessionHeaders = (compat: CompatRun) => ({
  [CHATFLOW_VERSION_HEADER]: String(compat.run.version),
  "X-Session-Id": compat.run.sessionId,
});

/** OpenAI's error `type` for our status. */
function errorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "api_error";
  return "invalid_request_error";
}

/** The field a problem names (`body.messages[2].role` → `messages[2].role`), for OpenAI's `param`. */
function paramOf(details: unknown): string | null {
  const first = Array.isArray(details) ? (details[0] as { field?: unknown } | undefined) : undefined;
  return typeof first?.field === "string" ? first.field.replace(/^(body|query|header)\./, "") : null;
}

/** Our `{code, message, details?}` as OpenAI's `{message, type, param, code}` (details kept for people). */
function openAIError(problem: StreamProblem, status: number) {
  return {
    error: {
      message: problem.message,
      type: errorType(status),
      param: paramOf(problem.details),
      code: problem.code,
      ...(problem.details === undefined ? {} : { details: problem.details }),
    },
  };
}

/**
 * Wraps a route handler so its error answers (from authentication, validation or the run) take
 * OpenAI's shape; the status, headers and every other answer are left as they are.
 */
export function withOpenAIErrors<A extends unknown[]>(
  handler: (req: Request, ...rest: A) => Promise<Response>,
): (req: Request, ...rest: A) => Promise<Response> {
  const wrapped = async (req: Request, ...rest: A): Promise<Response> => {
    const res = await handler(req, ...rest);
    if (res.status < 400 || !res.headers.get("content-type")?.includes("application/json")) return res;
    const body = (await res.json().catch(() => null)) as { error?: StreamProblem } | null;
    if (!body?.error || typeof body.error.message !== "string") return res;
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    return new Response(JSON.stringify(openAIError(body.error, res.status)), { status: res.status, headers });
  };
  return keepRouteOptions(wrapped, handler);
}

/**
 * The `errorBodies` of an OpenAI-compatible route's docs: every error status it may answer, in
 * OpenAI's shape (withOpenAIErrors rewrites them all).
 */
export function openAIErrorDocs(statuses: number[]): Record<number, ResponseDoc> {
  return Object.fromEntries(
    statuses.map((status) => [status, { description: "OpenAI's error shape", schema: openAIErrorSchema }]),
  );
}

const chunkLine = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

/** POST /chat/completions without `stream`: the whole answer. */
export async function chatCompletionResponse(compat: CompatRun, signal: AbortSignal): Promise<Response> {
  const result = await compat.run.execute({ signal });
  return json(chatCompletionOf(compat, result, now()), 200, sessionHeaders(compat));
}

/**
 * POST /chat/completions with `stream: true`: a role chunk, a chunk per token, a last chunk with
 * `finish_reason`, a usage chunk when asked (`stream_options.include_usage`), then `[DONE]`. A failure
 * mid-answer is a chunk holding OpenAI's `error` (the SDKs raise it).
 */
export function chatCompletionStream(compat: CompatRun, includeUsage: boolean, requestSignal: AbortSignal): Response {
  const created = now();
  const id = completionId("chatcmpl");
  const chunk = (delta: Record<string, unknown>, finish: "stop" | null, extra: Record<string, unknown> = {}) =>
    chunkLine({
      id,
      object: "chat.completion.chunk",
      created,
      model: compat.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...extra,
    });
  const res = eventStreamResponse({
    requestSignal,
    async work(write, signal) {
      write(chunk({ role: "assistant", content: "" }, null));
      const result = await compat.run.execute({ signal, onToken: (token) => write(chunk({ content: token }, null)) });
      write(chunk({}, "stop"));
      if (includeUsage)
        write(
          chunkLine({
            id,
            object: "chat.completion.chunk",
            created,
            model: compat.model,
            choices: [],
            usage: usageOf(result, compat.promptChars),
          }),
        );
    },
    fail: (problem, write) => write(chunkLine(openAIError(problem, 500))),
    end: (write) => write("data: [DONE]\n\n"),
  });
  for (const [k, v] of Object.entries(sessionHeaders(compat))) res.headers.set(k, v);
  return res;
}

/** POST /responses without `stream`. */
export async function responseJson(compat: CompatRun, signal: AbortSignal): Promise<Response> {
  const result = await compat.run.execute({ signal });
  return json(
    responseOf(compat, result, now(), completionId("resp", result.chatMessageId)),
    200,
    sessionHeaders(compat),
  );
}

/**
 * POST /responses with `stream: true`: the Responses API's events, each `event: <type>` with its JSON
 * (`response.created`, `response.output_item.added`, `response.content_part.added`,
 * `response.output_text.delta` per token, the matching `.done` events, `response.completed`); a
 * failure is `response.failed` with the error.
 */
export function responseStream(compat: CompatRun, requestSignal: AbortSignal): Response {
  const created = now();
  const id = completionId("resp");
  const itemId = completionId("msg");
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
  const shell = (status: string, extra: Record<string, unknown> = {}) => ({
    id,
    object: "response",
    created_at: created,
    status,
    model: compat.model,
    output: [],
    error: null,
    incomplete_details: null,
    usage: null,
    ...extra,
  });
  const item = (status: string, text: string) => ({
    type: "message",
    id: itemId,
    status,
    role: "assistant",
    content: status === "completed" ? [{ type: "output_text", text, annotations: [] }] : [],
  });
  const res = eventStreamResponse({
    requestSignal,
    async work(write, signal) {
      write(event("response.created", { response: shell("in_progress") }));
      write(event("response.in_progress", { response: shell("in_progress") }));
      write(event("response.output_item.added", { output_index: 0, item: item("in_progress", "") }));
      const part = { type: "output_text", text: "", annotations: [] };
      write(event("response.content_part.added", { item_id: itemId, output_index: 0, content_index: 0, part }));
      const result = await compat.run.execute({
        signal,
        onToken: (delta) =>
          write(event("response.output_text.delta", { item_id: itemId, output_index: 0, content_index: 0, delta })),
      });
      const text = result.text;
      write(event("response.output_text.done", { item_id: itemId, output_index: 0, content_index: 0, text }));
      write(
        event("response.content_part.done", {
          item_id: itemId,
          output_index: 0,
          content_index: 0,
          part: { ...part, text },
        }),
      );
      write(event("response.output_item.done", { output_index: 0, item: item("completed", text) }));
      const done = responseOf(compat, result, created, id);
      write(event("response.completed", { response: { ...done, output: [item("completed", text)] } }));
    },
    fail: (problem, write) =>
      write(
        event("response.failed", {
          response: shell("failed", { error: { code: problem.code, message: problem.message } }),
        }),
      ),
    end: () => {},
  });
  for (const [k, v] of Object.entries(sessionHeaders(compat))) res.headers.set(k, v);
  return res;
}
