import {
  type BedrockRuntimeClient,
  type ContentBlock,
  ConverseCommand,
  type ConverseCommandInput,
  type ConverseCommandOutput,
  ConverseStreamCommand,
  type Tool,
  type ToolChoice,
} from "@aws-sdk/client-bedrock-runtime";
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
import { toConverseMessages } from "./bedrock-messages";

/** What a Bedrock chat model is built with (the node's params and its resolved client). */
export interface BedrockChatFields {
  model: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  /** false: a streamed call asks for the whole answer (Converse) and yields it once. */
  streaming: boolean;
  client: BedrockRuntimeClient;
  /** The endpoint's host, for messages. */
  host: string;
  requester: string;
  caller: ModelCaller;
}

export interface BedrockChatCallOptions extends BaseChatModelCallOptions {
  tools?: Tool[];
  tool_choice?: "auto" | "none" | "any" | "required" | string;
}

type Usage = { inputTokens?: number; outputTokens?: number; totalTokens?: number };

/**
 * A chat model on Amazon Bedrock over AWS's official client: Converse for whole answers,
 * ConverseStream (AWS's binary event stream) for tokens as they come, tool calling through
 * `toolConfig`, images as bytes. Requests are SigV4-signed by the client and sent through the
 * guarded model fetch (bedrock-client.ts). Failures become AppErrors naming the node.
 */
export class BedrockChat extends BaseChatModel<BedrockChatCallOptions, AIMessageChunk> {
  readonly model: string;
  private readonly fields: BedrockChatFields;

  static lc_name() {
    return "SwitchyardBedrockChat";
  }

  constructor(fields: BedrockChatFields) {
    super({});
    this.fields = fields;
    this.model = fields.model;
  }

  _llmType() {
    return "bedrock_converse";
  }

  getLsParams(options: this["ParsedCallOptions"]): LangSmithParams {
    return {
      ls_provider: "amazon_bedrock",
      ls_model_name: this.model,
      ls_model_type: "chat",
      ls_temperature: this.fields.temperature,
      ls_max_tokens: this.fields.maxTokens,
      ls_stop: options.stop,
    };
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<BedrockChatCallOptions>,
  ): Runnable<BaseMessage[], AIMessageChunk, BedrockChatCallOptions> {
    const specs = tools.map((tool): Tool => {
      const { function: fn } = convertToOpenAITool(tool);
      return {
        toolSpec: {
          name: fn.name,
          ...(fn.description ? { description: fn.description } : {}),
          inputSchema: { json: (fn.parameters ?? { type: "object", properties: {} }) as never },
        },
      };
    });
    return this.withConfig({ tools: specs, ...kwargs });
  }

  private request(messages: BaseMessage[], options: this["ParsedCallOptions"]): ConverseCommandInput {
    const f = this.fields;
    const converse = toConverseMessages(messages, f.requester);
    const choice = toolChoice(options.tool_choice);
    return {
      modelId: this.model,
      messages: converse.messages,
      ...(converse.system.length ? { system: converse.system } : {}),
      inferenceConfig: {
        ...(f.temperature === undefined ? {} : { temperature: f.temperature }),
        ...(f.maxTokens ? { maxTokens: f.maxTokens } : {}),
        ...(f.topP === undefined ? {} : { topP: f.topP }),
        ...(options.stop?.length ? { stopSequences: options.stop } : {}),
      },
      // tool_choice "none": the tools are not offered at all (Converse has no such choice).
      ...(options.tools?.length && options.tool_choice !== "none"
        ? { toolConfig: { tools: options.tools, ...(choice ? { toolChoice: choice } : {}) } }
        : {}),
    };
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const input = this.request(messages, options);
    const out = await this.call(() =>
      this.fields.client.send(new ConverseCommand(input), { abortSignal: options.signal }),
    );
    const message = this.toMessage(out);
    const text = typeof message.content === "string" ? message.content : "";
    return { generations: [{ text, message, generationInfo: { finish_reason: out.stopReason } }] };
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
    const input = this.request(messages, options);
    const out = await this.call(() =>
      this.fields.client.send(new ConverseStreamCommand(input), { abortSignal: options.signal }),
    );
    if (!out.stream) throw this.error("upstream_error", "failed", "answered no stream");
    const events = out.stream[Symbol.asyncIterator]();
    for (let step = await this.call(() => events.next()); !step.done; step = await this.call(() => events.next())) {
      const event = step.value;
      const chunk = this.toChunk(event as unknown as Record<string, unknown>);
      if (!chunk) continue;
      if (chunk.text) await runManager?.handleLLMNewToken(chunk.text);
      yield chunk;
    }
  }

  /** One event of ConverseStream as a chunk: text, a tool call's start or a piece of its input, the end, usage. */
  private toChunk(event: Record<string, unknown>): ChatGenerationChunk | undefined {
    const e = event as {
      contentBlockStart?: { contentBlockIndex?: number; start?: { toolUse?: { toolUseId?: string; name?: string } } };
      contentBlockDelta?: { contentBlockIndex?: number; delta?: { text?: string; toolUse?: { input?: string } } };
      messageStop?: { stopReason?: string };
      metadata?: { usage?: Usage };
    };
    const piece = (fields: ConstructorParameters<typeof AIMessageChunk>[0] & object, text = "") =>
      new ChatGenerationChunk({ text, message: new AIMessageChunk({ content: text, ...fields }) });
    const use = e.contentBlockStart?.start?.toolUse;
    if (use) {
      const index = e.contentBlockStart?.contentBlockIndex ?? 0;
      return piece({
        tool_call_chunks: [{ type: "tool_call_chunk", id: use.toolUseId, name: use.name, args: "", index }],
      });
    }
    const delta = e.contentBlockDelta?.delta;
    if (typeof delta?.text === "string") return piece({}, delta.text);
    if (typeof delta?.toolUse?.input === "string") {
      const index = e.contentBlockDelta?.contentBlockIndex ?? 0;
      return piece({ tool_call_chunks: [{ type: "tool_call_chunk", args: delta.toolUse.input, index }] });
    }
    if (e.messageStop)
      return piece({ response_metadata: { model_name: this.model, finish_reason: e.messageStop.stopReason } });
    if (e.metadata?.usage) return piece({ usage_metadata: usageOf(e.metadata.usage) });
    return undefined;
  }

  /** A whole Converse answer as an AI message: text, tool calls, usage. */
  private toMessage(out: ConverseCommandOutput): AIMessage {
    const blocks: ContentBlock[] = out.output?.message?.content ?? [];
    const text = blocks
      .map((b) => (typeof b.text === "string" ? b.text : ""))
      .filter(Boolean)
      .join("");
    const calls = blocks.flatMap((b) =>
      b.toolUse?.name
        ? [
            {
              id: b.toolUse.toolUseId,
              name: b.toolUse.name,
              args: (b.toolUse.input ?? {}) as Record<string, unknown>,
              type: "tool_call" as const,
            },
          ]
        : [],
    );
    return new AIMessage({
      content: text,
      tool_calls: calls,
      response_metadata: { model_name: this.model, finish_reason: out.stopReason },
      ...(out.usage ? { usage_metadata: usageOf(out.usage) } : {}),
    });
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
    const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const status = e.$metadata?.httpStatusCode;
    const name = e.name ?? "Error";
    const said = `${name}${e.message ? `: ${e.message.slice(0, 300)}` : ""}`;
    // Throttling or an overloaded model inside a stream (after the 200) is still "try again later".
    if (/^(Throttling|ServiceUnavailable|ModelNotReady)/i.test(name))
      return this.error(
        "upstream_unavailable",
        /^Throttling/i.test(name) ? "rate_limited" : "unavailable",
        `is unavailable (${said})`,
        {
          cause: err,
          status,
        },
      );
    if (status === undefined && !/Exception$/.test(name)) {
      // The stream broke (cut connection, bad frame): the provider's answer is incomplete.
      return this.error("upstream_error", "failed", `failed: the answer broke off (${said})`, { cause: err });
    }
    return this.error(
      "upstream_error",
      "http_error",
      `failed: the provider answered ${status ? `HTTP ${status} ` : ""}(${said})`,
      {
        cause: err,
        status,
      },
    );
  }

  private error(
    code: "upstream_error" | "upstream_unavailable",
    reason: ModelFailureDetails["reason"],
    what: string,
    { cause, status }: { cause?: unknown; status?: number } = {},
  ): AppError {
    const { caller, host } = this.fields;
    const details: ModelFailureDetails = {
      ...(caller.node ? { node: caller.node } : {}),
      kind: caller.kind,
      host,
      reason,
      ...(status === undefined ? {} : { status }),
    };
    return new AppError(code, `${callerName(caller)} ${what.replace(/\.?$/, "")} (Amazon Bedrock at ${host}).`, {
      details,
      cause,
    });
  }
}

function usageOf(usage: Usage) {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return { input_tokens: input, output_tokens: output, total_tokens: usage.totalTokens ?? input + output };
}

/** LangChain's tool choice as Converse's. */
function toolChoice(choice: BedrockChatCallOptions["tool_choice"]): ToolChoice | undefined {
  if (!choice || choice === "auto" || choice === "none") return undefined;
  if (choice === "any" || choice === "required") return { any: {} };
  return { tool: { name: choice } };
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
