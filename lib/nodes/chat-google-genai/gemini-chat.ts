import { type GenerateContentConfig, type GenerateContentResponse, GoogleGenAI } from "@google/genai";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BindToolsInput,
  type LangSmithParams,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { AppError } from "@/common/errors";
import { callerName, type ModelCaller, type ModelFailureDetails } from "../../security/model-failure";
import { toGeminiContents } from "./gemini-messages";

/** What a Gemini chat model is built with (the node's params and its resolved connection). */
export interface GeminiChatFields {
  model: string;
  temperature?: number;
  maxOutputTokens?: number;
  topP?: number;
  topK?: number;
  /** false: a streamed call asks for the whole answer (generateContent) and yields it once. */
  streaming: boolean;
  apiKey: string;
  /** Without the API version, e.g. https://generativelanguage.googleapis.com. */
  baseUrl: string;
  /** The guarded model fetch (ctx.modelFetch): the outbound policy, the credential's hosts, MODEL_TIMEOUT_MS. */
  fetch?: typeof fetch;
  /** The SDK's own timeout, a backstop: the guarded fetch enforces the real deadline. */
  timeoutMs: number;
  caller: ModelCaller;
}

type FunctionDeclaration = { name: string; description?: string; parametersJsonSchema?: unknown };
type ToolChoice = "auto" | "none" | "any" | "required" | string;

export interface GeminiChatCallOptions extends BaseChatModelCallOptions {
  tools?: FunctionDeclaration[];
  tool_choice?: ToolChoice;
}

let callCounter = 0;

/**
 * A Gemini chat model over Google's official client (@google/genai), for the Generative Language
 * API: text, streaming (`streamGenerateContent?alt=sse`), tool calling, images as inline data. The
 * client sends through the guarded model fetch we give it, never the global fetch, and makes one
 * attempt (retries are the run's business). Failures become AppErrors naming the node.
 */
export class GeminiChat extends BaseChatModel<GeminiChatCallOptions, AIMessageChunk> {
  readonly model: string;
  private readonly fields: GeminiChatFields;
  private readonly client: GoogleGenAI;

  static lc_name() {
    return "SwitchyardGeminiChat";
  }

  constructor(fields: GeminiChatFields) {
    super({});
    this.fields = fields;
    this.model = fields.model;
    this.client = new GoogleGenAI({
      apiKey: fields.apiKey,
      httpOptions: {
        baseUrl: fields.baseUrl,
        timeout: fields.timeoutMs,
        retryOptions: { attempts: 1 },
        ...(fields.fetch ? { fetch: fields.fetch } : {}),
      },
    });
  }

  _llmType() {
    return "google_genai";
  }

  getLsParams(options: this["ParsedCallOptions"]): LangSmithParams {
    return {
      ls_provider: "google_genai",
      ls_model_name: this.model,
      ls_model_type: "chat",
      ls_temperature: this.fields.temperature,
      ls_max_tokens: this.fields.maxOutputTokens,
      ls_stop: options.stop,
    };
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<GeminiChatCallOptions>,
  ): Runnable<BaseMessage[], AIMessageChunk, GeminiChatCallOptions> {
    const declarations = tools.map((tool) => {
      const { function: fn } = convertToOpenAITool(tool);
      return { name: fn.name, description: fn.description, parametersJsonSchema: fn.parameters };
    });
    return this.withConfig({ tools: declarations, ...kwargs });
  }

  private request(messages: BaseMessage[], options: this["ParsedCallOptions"]) {
    const f = this.fields;
    const { contents, systemInstruction } = toGeminiContents(messages);
    const config: GenerateContentConfig = {
      ...(systemInstruction ? { systemInstruction } : {}),
      ...(f.temperature === undefined ? {} : { temperature: f.temperature }),
      ...(f.maxOutputTokens ? { maxOutputTokens: f.maxOutputTokens } : {}),
      ...(f.topP === undefined ? {} : { topP: f.topP }),
      ...(f.topK === undefined ? {} : { topK: f.topK }),
      ...(options.stop?.length ? { stopSequences: options.stop } : {}),
      ...(options.tools?.length ? { tools: [{ functionDeclarations: options.tools as never }] } : {}),
      ...toolConfig(options.tool_choice),
      ...(options.signal ? { abortSignal: options.signal } : {}),
    };
    return { model: this.model, contents, config };
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const response = await this.call(() => this.client.models.generateContent(this.request(messages, options)));
    const { text, message } = this.toMessage(response);
    return {
      generations: [{ text, message, generationInfo: { finish_reason: response.candidates?.[0]?.finishReason } }],
    };
  }

  async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    if (!this.fields.streaming) {
      const { generations } = await this._generate(messages, options);
      const { text, message } = generations[0];
      if (text) await runManager?.handleLLMNewToken(text);
      yield new ChatGenerationChunk({ text, message: new AIMessageChunk({ ...(message as AIMessage) }) });
      return;
    }
    const stream = await this.call(() => this.client.models.generateContentStream(this.request(messages, options)));
    let index = 0;
    const next = () => this.call(() => stream.next());
    for (let step = await next(); !step.done; step = await next()) {
      const { text, message } = this.toMessage(step.value, index);
      index += message.tool_calls?.length ?? 0;
      if (text) await runManager?.handleLLMNewToken(text);
      yield new ChatGenerationChunk({
        text,
        message: new AIMessageChunk({
          content: text,
          tool_call_chunks: (message.tool_calls ?? []).map((c, i) => ({
            type: "tool_call_chunk" as const,
            id: c.id,
            name: c.name,
            args: JSON.stringify(c.args),
            index: index - (message.tool_calls?.length ?? 0) + i,
          })),
          response_metadata: message.response_metadata,
          ...(message.usage_metadata ? { usage_metadata: message.usage_metadata } : {}),
        }),
      });
    }
  }

  /** One answer (or one streamed piece) as an AI message: text, function calls, usage. */
  private toMessage(response: GenerateContentResponse, firstCall = 0): { text: string; message: AIMessage } {
    const candidate = response.candidates?.[0];
    const blocked = response.promptFeedback?.blockReason;
    if (!candidate && blocked) throw this.error("upstream_error", "failed", `was blocked by Gemini (${blocked})`);
    const parts = candidate?.content?.parts ?? [];
    const text = parts
      .filter((p) => typeof p.text === "string" && !p.thought)
      .map((p) => p.text)
      .join("");
    const calls = parts.flatMap((p, i) =>
      p.functionCall?.name
        ? [
            {
              id: p.functionCall.id ?? `gemini-call-${++callCounter}-${firstCall + i}`,
              name: p.functionCall.name,
              args: (p.functionCall.args ?? {}) as Record<string, unknown>,
              type: "tool_call" as const,
            },
          ]
        : [],
    );
    const usage = response.usageMetadata;
    const message = new AIMessage({
      content: text,
      tool_calls: calls,
      response_metadata: { model_name: this.model, finish_reason: candidate?.finishReason },
      ...(usage
        ? {
            usage_metadata: {
              input_tokens: usage.promptTokenCount ?? 0,
              output_tokens: usage.candidatesTokenCount ?? 0,
              total_tokens: usage.totalTokenCount ?? 0,
            },
          }
        : {}),
    });
    return { text, message };
  }

  /** Runs a client call; its failures become AppErrors naming the node (the guarded fetch's pass as they are). */
  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw this.failure(err);
    }
  }

  private failure(err: unknown): unknown {
    const inner = appErrorIn(err);
    if (inner) return inner;
    const status = (err as { status?: unknown })?.status;
    if (typeof status !== "number") return err;
    const said = providerMessage(err instanceof Error ? err.message : "");
    return this.error(
      status === 503 || status === 529 ? "upstream_unavailable" : "upstream_error",
      "http_error",
      `failed: the provider answered HTTP ${status}${said ? `: ${said.slice(0, 300)}` : ""}`,
      { cause: err, status },
    );
  }

  private error(
    code: "upstream_error" | "upstream_unavailable",
    reason: ModelFailureDetails["reason"],
    what: string,
    { cause, status }: { cause?: unknown; status?: number } = {},
  ): AppError {
    const { caller } = this.fields;
    const host = new URL(this.fields.baseUrl).host;
    const details: ModelFailureDetails = {
      ...(caller.node ? { node: caller.node } : {}),
      kind: caller.kind,
      host,
      reason,
      ...(status === undefined ? {} : { status }),
    };
    return new AppError(code, `${callerName(caller)} ${what.replace(/\.?$/, "")} (${host}).`, { details, cause });
  }
}

/** LangChain's tool choice as Gemini's function calling mode. */
function toolConfig(choice: ToolChoice | undefined): Pick<GenerateContentConfig, "toolConfig"> {
  if (!choice || choice === "auto") return {};
  if (choice === "none") return { toolConfig: { functionCallingConfig: { mode: "NONE" as never } } };
  if (choice === "any" || choice === "required")
    return { toolConfig: { functionCallingConfig: { mode: "ANY" as never } } };
  return { toolConfig: { functionCallingConfig: { mode: "ANY" as never, allowedFunctionNames: [choice] } } };
}

/** The AppError the guarded fetch threw, wherever the client wrapped it. */
function appErrorIn(err: unknown): AppError | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 6 && cur; depth += 1) {
    if (cur instanceof AppError) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Google's error body (`{"error":{"message":…}}`, which the client puts in its message) or the text. */
function providerMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === "string") return parsed.error.message;
  } catch {
    // not JSON
  }
  return text.trim();
}
