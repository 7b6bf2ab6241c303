import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage, type AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import { AppError } from "@/common/errors";
import type { GuardedRequest } from "../../security/outbound";
import { NO_STREAM_TAG, recordToolStart, recordUsedTool } from "../events";
import { childConfig, FlowChain, type ChainTurn } from "../shared/flow-chain";
import type { ChatHistoryMemory } from "../shared/memory";
import { humanMessage, messageText } from "../shared/messages";
import { validateOperationArgs } from "./args";
import { callOperation, truncateForModel } from "./call";
import type { Operation, ParsedSpec } from "./spec";

export interface OpenApiChainOptions {
  model: BaseChatModel;
  /** The model with one tool per operation bound. */
  toolModel: Runnable<BaseMessage[], AIMessage>;
  spec: ParsedSpec;
  serverUrl: string;
  headers: Record<string, string>;
  send: GuardedRequest;
  timeoutMs: number;
  memory?: ChatHistoryMemory;
}

/**
 * Our OpenAPI chain: (1) the model picks one operation and its arguments by function calling,
 * (2) the arguments are checked against the spec, (3) the API is called, (4) the model answers the
 * question from the response. A message that needs no API call is an error (openapi_no_operation):
 * this chain only calls the API. A BaseChain, so it can end a flow or sit inside a Chain Tool.
 */
export class OpenApiChain extends FlowChain {
  constructor(private readonly opts: OpenApiChainOptions) {
    super({});
  }

  _chainType() {
    return "switchyard_openapi_chain";
  }

  protected async answer(turn: ChainTurn, runManager?: CallbackManagerForChainRun): Promise<string> {
    const { spec } = this.opts;
    const history = this.opts.memory ? this.opts.memory.messagesFor(turn.history) : [];
    const { op, rawArgs } = await this.chooseOperation(turn, history, runManager);
    const args = validateOperationArgs(op, rawArgs);
    await recordToolStart(runManager, op.operationId, args);
    const response = await callOperation({
      send: this.opts.send,
      serverUrl: this.opts.serverUrl,
      apiTitle: spec.title,
      op,
      args,
      headers: this.opts.headers,
      timeoutMs: this.opts.timeoutMs,
      signal: turn.signal,
    });
    const toolOutput = truncateForModel(response);
    await recordUsedTool(runManager, { tool: op.operationId, toolInput: args, toolOutput });
    const reply = await this.opts.model.invoke(
      [
        new SystemMessage(
          `You answer the user's question using only the JSON response of the API "${spec.title}" below. ` +
            "If the response does not contain the answer, say so briefly.",
        ),
        ...history,
        new HumanMessage(`${turn.question}\n\nAPI response of ${op.operationId}:\n${toolOutput}`),
      ],
      childConfig(runManager, turn.signal),
    );
    return messageText(reply);
  }

  private async chooseOperation(turn: ChainTurn, history: BaseMessage[], runManager?: CallbackManagerForChainRun) {
    const { spec } = this.opts;
    const system = new SystemMessage(
      `You call the API "${spec.title}" for the user. Choose the one operation that answers the latest message and ` +
        "fill its parameters only with values stated by the user or clearly inferred from the conversation. " +
        "Use exactly the allowed values of parameters that list them.",
    );
    const ai = await this.opts.toolModel.invoke(
      [system, ...history, humanMessage(turn.question, turn.images)],
      childConfig(runManager, turn.signal, [NO_STREAM_TAG]),
    );
    const call = ai.tool_calls?.[0];
    const op: Operation | undefined = call && spec.operations.find((o) => o.toolName === call.name);
    if (!call || !op) {
      throw new AppError(
        "openapi_no_operation",
        `The OpenAPI chain for '${spec.title}' found no API operation for this message. An OpenAPI chain only calls the API; to also hold a conversation, wrap it in a Chain Tool under a Tool Agent.`,
      );
    }
    return { op, rawArgs: call.args };
  }
}
