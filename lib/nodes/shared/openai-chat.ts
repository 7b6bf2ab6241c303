import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BindToolsInput,
  type LangSmithParams,
} from "@langchain/core/language_models/chat_models";
import { type AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { convertCompletionsMessageToBaseMessage, convertMessagesToCompletionsMessageParams } from "@langchain/openai";
import { AppError } from "@/common/errors";
import { linkedDeadline } from "../../security/deadline";
import { type GuardedAnswer, type GuardedRequest, requestOverFetch } from "../../security/outbound";
import { callerName, type ModelCaller, type ModelFailureDetails } from "../../security/model-failure";

/** What an OpenAI-compatible chat model is built with (the node's params, resolved connection). */
export interface OpenAIChatFields {
  model: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  stop?: string[];
  /** Sent as `Authorization: Bearer …` (a placeholder for local servers that need none). */
  apiKey: string;
  /** Up to the version, e.g. https://api.openai.com/v1 (the default). */
  baseURL?: string;
  /**
   * The whole Chat Completions URL, when it is not `<baseURL>/chat/completions` (Azure OpenAI:
   * `<endpoint>/openai/deployments/<deployment>/chat/completions?api-version=…`).
   */
  url?: string;
  /** How the key is sent, when not `Authorization: Bearer <apiKey>` (Azure OpenAI: `api-key`). */
  authHeaders?: Record<string, string>;
  /**
   * The model guard (ctx.modelRequest: the outbound policy, MODEL_TIMEOUT_MS, failures naming the
   * node), answering node's own response. Without it, `fetch` (or the global one) is used.
   */
  request?: GuardedRequest;
  fetch?: typeof fetch;
  /** A backstop for the whole call; the guarded fetch enforces the real deadline. */
  timeoutMs: number;
  /** The node, named in failures the guarded fetch does not already name (4xx, a malformed answer). */
  caller: ModelCaller;
}

type ToolDefinition = ReturnType<typeof convertToOpenAITool>;
type ToolChoice = "auto" | "none" | "required" | { type: "function"; function: { name: string } };

export interface OpenAIChatCallOptions extends BaseChatModelCallOptions {
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
}

/** One tool call of a streamed answer, assembled from its deltas. */
interface RawToolCall {
  id?: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** The parts of a chat completion (or of one streamed chunk) read here. */
interface Completion {
  id?: string;
  model?: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
  system_fingerprint?: string;
  error?: { message?: string };
  choices?: {
    message?: { role?: string; content?: string | null; tool_calls?: RawToolCall[] };
    delta?: {
      content?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
}

const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/**
 * A chat model for OpenAI's Chat Completions API and the servers that speak it (Ollama, llama.cpp,
 * vLLM, LM Studio…), in place of @langchain/openai's ChatOpenAI and the OpenAI SDK under it. It
 * converts messages and answers with the same functions ChatOpenAI uses (exported by
 * @langchain/openai), so what is sent and what comes back are the same; what it leaves out is the
 * SDK's client (request building, header merging, retries, its own stream decoder) and ChatOpenAI's
 * per-call work for features no node uses (Responses API, structured output, token counting): the
 * part of every model call that measured in the prediction profiles (see bench/profile-after.md).
 *
 * Streaming: each token goes to the run's callbacks (`handleLLMNewToken`) as it arrives, and the
 * whole answer is yielded once at the end as one chunk, instead of one message chunk per token that
 * LangChain then concatenates again. So `model.stream()` yields a single chunk; tokens are seen
 * through callbacks, which is how runs stream (RunRecorder).
 */
export class OpenAIChat extends BaseChatModel<OpenAIChatCallOptions, AIMessageChunk> {
  readonly model: string;
  readonly apiKey: string;
  private readonly fields: OpenAIChatFields;
  private readonly url: string;
  private readonly authHeaders: Record<string, string>;
  private readonly send: GuardedRequest;

  static lc_name() {
    return "SwitchyardOpenAIChat";
  }

  constructor(fields: OpenAIChatFields) {
    super({});
    this.fields = fields;
    this.model = fields.model;
    this.apiKey = fields.apiKey;
    this.url = fields.url ?? `${(fields.baseURL || DEFAULT_BASE_URL).replace(/\/+$/, "")}/chat/completions`;
    this.authHeaders = fields.authHeaders ?? { authorization: `Bearer ${fields.apiKey}` };
    this.send = fields.request ?? requestOverFetch(fields.fetch ?? fetch);
  }

  _llmType() {
    return "openai";
  }

  getLsParams(options: this["ParsedCallOptions"]): LangSmithParams {
    return {
      ls_provider: "openai",
      ls_model_name: this.model,
      ls_model_type: "chat",
      ls_temperature: this.fields.temperature,
      ls_max_tokens: this.fields.maxTokens,
      ls_stop: options.stop ?? this.fields.stop,
    };
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<OpenAIChatCallOptions>,
  ): Runnable<BaseMessage[], AIMessageChunk, OpenAIChatCallOptions> {
    return this.withConfig({ tools: tools.map((tool) => convertToOpenAITool(tool)), ...kwargs });
  }

  /** The request's parameters other than the messages (also what tracing shows; no key). */
  override invocationParams(options?: this["ParsedCallOptions"]) {
    const f = this.fields;
    const stop = options?.stop ?? f.stop;
    return {
      model: this.model,
      ...(f.temperature === undefined ? {} : { temperature: f.temperature }),
      ...(f.maxTokens ? { [isReasoningModel(this.model) ? "max_completion_tokens" : "max_tokens"]: f.maxTokens } : {}),
      ...(f.topP === undefined ? {} : { top_p: f.topP }),
      ...(f.frequencyPenalty === undefined ? {} : { frequency_penalty: f.frequencyPenalty }),
      ...(f.presencePenalty === undefined ? {} : { presence_penalty: f.presencePenalty }),
      ...(stop?.length ? { stop } : {}),
      ...(options?.tools?.length ? { tools: options.tools } : {}),
      ...(options?.tool_choice ? { tool_choice: options.tool_choice } : {}),
    };
  }

  private requestBody(messages: BaseMessage[], options: this["ParsedCallOptions"], stream: boolean): string {
    return JSON.stringify({
      ...this.invocationParams(options),
      messages: convertMessagesToCompletionsMessageParams({ messages, model: this.model }),
      // The usage chunk at the end, as LangChain's ChatOpenAI asks by default: the run's token counts.
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    });
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const body = this.requestBody(messages, options, false);
    const completion = await this.post(body, options.signal, async (res) =>
      this.parseJson((await res.bytes()).toString("utf8")),
    );
    const choice = completion.choices?.[0];
    if (!choice?.message) throw this.badAnswer("it has no choices");
    const message = convertCompletionsMessageToBaseMessage({
      message: { role: "assistant", ...choice.message } as never,
      rawResponse: completion as never,
    }) as AIMessage;
    if (completion.usage) message.usage_metadata = usageMetadata(completion.usage);
    return {
      generations: [
        {
          text: typeof message.content === "string" ? message.content : "",
          message,
          generationInfo: { finish_reason: choice.finish_reason },
        },
      ],
      llmOutput: completion.usage ? { tokenUsage: tokenUsage(completion.usage) } : undefined,
    };
  }

  async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const body = this.requestBody(messages, options, true);
    const answer = await this.post(body, options.signal, (res) => this.readStream(res, runManager));
    const message = convertCompletionsMessageToBaseMessage({
      message: {
        role: "assistant",
        content: answer.content,
        ...(answer.toolCalls.length ? { tool_calls: answer.toolCalls } : {}),
      } as never,
      rawResponse: { id: answer.id, model: answer.model, usage: answer.usage ?? undefined } as never,
    }) as AIMessage;
    const chunk = new AIMessageChunk({
      content: message.content,
      id: message.id,
      tool_calls: message.tool_calls,
      additional_kwargs: message.additional_kwargs,
      response_metadata: { ...message.response_metadata, finish_reason: answer.finishReason },
      ...(answer.usage ? { usage_metadata: usageMetadata(answer.usage) } : {}),
    });
    // The constructor keeps invalid tool calls only when built from chunks: set them after.
    chunk.invalid_tool_calls = message.invalid_tool_calls ?? [];
    yield new ChatGenerationChunk({
      message: chunk,
      text: answer.content,
      generationInfo: { finish_reason: answer.finishReason },
    });
  }

  /** POSTs the body and hands the OK answer to `read`; the backstop deadline covers both. */
  private async post<T>(body: string, signal: AbortSignal | undefined, read: (res: GuardedAnswer) => Promise<T>) {
    const deadline = linkedDeadline(signal, this.fields.timeoutMs);
    try {
      let res: GuardedAnswer;
      try {
        res = await this.send(this.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json",
            ...this.authHeaders,
          },
          body,
          signal: deadline.signal,
        });
      } catch (err) {
        throw this.failure(err, deadline.expired(), signal);
      }
      if (res.status < 200 || res.status > 299) throw await this.statusFailure(res);
      try {
        return await read(res);
      } catch (err) {
        throw this.failure(err, deadline.expired(), signal);
      }
    } finally {
      deadline.release();
    }
  }

  /** A failure the guarded fetch did not already name (it throws AppErrors); aborts pass unchanged. */
  private failure(err: unknown, expired: boolean, signal: AbortSignal | undefined): unknown {
    if (err instanceof AppError || signal?.aborted) return err;
    if (expired) return this.error("upstream_timeout", "timeout", "did not answer in time", { cause: err });
    const why = err instanceof Error ? err.message : String(err);
    return this.error("upstream_unavailable", "failed", `failed: ${why}`, { cause: err });
  }

  /** A status the guarded fetch let through (4xx other than a refused key), with the provider's words. */
  private async statusFailure(res: GuardedAnswer): Promise<AppError> {
    const text = await res
      .bytes()
      .then((bytes) => bytes.toString("utf8"))
      .catch(() => "");
    let said = text.trim();
    try {
      const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
      const message = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? parsed.message);
      if (typeof message === "string") said = message;
    } catch {
      // not JSON: the text as it came
    }
    const snippet = said ? `: ${said.slice(0, 300)}` : "";
    return this.error("upstream_error", "http_error", `failed: the provider answered HTTP ${res.status}${snippet}`, {
      status: res.status,
    });
  }

  private badAnswer(why: string): AppError {
    return this.error("upstream_error", "failed", `failed: its answer is not a chat completion (${why})`);
  }

  /** "Chat model “Support bot” failed: … (127.0.0.1:4111)." with the node, host and reason as details. */
  private error(
    code: "upstream_error" | "upstream_unavailable" | "upstream_timeout",
    reason: ModelFailureDetails["reason"],
    what: string,
    { cause, status }: { cause?: unknown; status?: number } = {},
  ): AppError {
    const { caller } = this.fields;
    const host = new URL(this.url).host;
    const details: ModelFailureDetails = {
      ...(caller.node ? { node: caller.node } : {}),
      kind: caller.kind,
      host,
      reason,
      ...(status === undefined ? {} : { status }),
    };
    return new AppError(code, `${callerName(caller)} ${what.replace(/\.?$/, "")} (${host}).`, { details, cause });
  }

  private parseJson(text: string): Completion {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw this.badAnswer("not JSON");
    }
    if (!parsed || typeof parsed !== "object") throw this.badAnswer("not an object");
    const completion = parsed as Completion;
    if (completion.error) throw this.badAnswer(`error: ${String(completion.error.message ?? "unknown")}`);
    return completion;
  }

  /**
   * Reads a Server-Sent Events answer: each `data:` event is a completion chunk; content goes to
   * the callbacks as it arrives, tool call deltas are joined by index. Ends at `[DONE]` or the
   * stream's end; an `error` event fails the call.
   */
  private async readStream(res: GuardedAnswer, runManager?: CallbackManagerForLLMRun) {
    const answer = {
      id: undefined as string | undefined,
      model: undefined as string | undefined,
      content: "",
      toolCalls: [] as RawToolCall[],
      finishReason: undefined as string | undefined,
      usage: undefined as Completion["usage"],
      events: 0,
    };
    const onToken = runManager && tokenSink(runManager);
    const decoder = new TextDecoder();
    let pending = "";
    let done = false;
    const onLine = async (line: string) => {
      if (!line.startsWith("data:")) return; // comments, event names, ids, blank separators
      const data = line.slice(line.charCodeAt(5) === 32 ? 6 : 5);
      if (data === "[DONE]") {
        done = true;
        return;
      }
      const chunk = this.parseJson(data);
      answer.events += 1;
      answer.id ??= chunk.id;
      answer.model ??= chunk.model;
      if (chunk.usage) answer.usage = chunk.usage;
      const choice = chunk.choices?.[0];
      if (!choice) return;
      if (choice.finish_reason) answer.finishReason = choice.finish_reason;
      const delta = choice.delta;
      if (!delta) return;
      for (const call of delta.tool_calls ?? []) {
        const index = call.index ?? 0;
        const into = (answer.toolCalls[index] ??= { type: "function", function: { name: "", arguments: "" } });
        if (call.id) into.id = call.id;
        if (call.function?.name) into.function.name += call.function.name;
        if (call.function?.arguments) into.function.arguments += call.function.arguments;
      }
      if (delta.content) {
        answer.content += delta.content;
        await onToken?.(delta.content);
      }
    };
    // Leaving the loop early (at [DONE]) ends the body's read: what follows is not read.
    for await (const bytes of res.chunks()) {
      pending += decoder.decode(bytes, { stream: true });
      let start = 0;
      for (let end = pending.indexOf("\n"); end >= 0 && !done; end = pending.indexOf("\n", start)) {
        await onLine(pending.slice(start, pending.charCodeAt(end - 1) === 13 ? end - 1 : end));
        start = end + 1;
      }
      if (done) break;
      pending = pending.slice(start);
    }
    if (!done) {
      pending += decoder.decode();
      if (pending) await onLine(pending.replace(/\r$/, ""));
    }
    if (answer.events === 0) throw this.badAnswer("the stream ended without a completion chunk");
    answer.toolCalls = answer.toolCalls.filter(Boolean);
    return answer;
  }
}

/** OpenAI's reasoning models (o1, o3, gpt-5…) take `max_completion_tokens` and refuse `max_tokens` (as ChatOpenAI decides). */
function isReasoningModel(model: string): boolean {
  return /^o\d/.test(model) || /^gpt-[56](?!-chat)/.test(model);
}

const TOKEN_INDEX = { prompt: 0, completion: 0 };

/**
 * Where a streamed token goes: the run's handlers. When they all wait for their callbacks (as the
 * RunRecorder does), each is called directly, in order, with what the callback manager would pass;
 * the manager's own `handleLLMNewToken` wraps every call of every token in a fresh async context
 * (AsyncLocalStorage.run) and promise chain, the largest cost of a streamed answer after the socket
 * writes (bench/profile-after.md). Handlers that queue their callbacks (tracers) keep the manager's
 * path. As with the manager, a handler's error is logged unless the handler asks to raise it.
 */
function tokenSink(runManager: CallbackManagerForLLMRun): (token: string) => Promise<void> {
  const handlers = runManager.handlers.filter((h) => !h.ignoreLLM && h.handleLLMNewToken);
  if (handlers.some((h) => !h.awaitHandlers)) return (token) => runManager.handleLLMNewToken(token, TOKEN_INDEX);
  const { runId } = runManager;
  // What the manager passes too: its protected parent run id and tags.
  const { _parentRunId: parentRunId, tags } = runManager as unknown as { _parentRunId?: string; tags?: string[] };
  return async (token) => {
    for (const handler of handlers) {
      try {
        await handler.handleLLMNewToken?.(token, TOKEN_INDEX, runId, parentRunId, tags);
      } catch (err) {
        if (handler.raiseError) throw err;
        console.warn(`Error in handler ${handler.constructor.name}, handleLLMNewToken: ${err}`);
      }
    }
  };
}

function usageMetadata(usage: NonNullable<Completion["usage"]>) {
  return {
    input_tokens: usage.prompt_tokens ?? 0,
    output_tokens: usage.completion_tokens ?? 0,
    total_tokens: usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0),
  };
}

function tokenUsage(usage: NonNullable<Completion["usage"]>) {
  return {
    promptTokens: usage.prompt_tokens ?? 0,
    completionTokens: usage.completion_tokens ?? 0,
    totalTokens: usage.total_tokens ?? 0,
  };
}
