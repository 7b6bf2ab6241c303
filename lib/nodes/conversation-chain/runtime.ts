import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { SystemMessage } from "@langchain/core/messages";
import type { RuntimeOf } from "../define";
import type { conversationChainDefinition } from "./definition";
import { childConfig, FlowChain, type ChainTurn } from "../shared/flow-chain";
import type { ChatHistoryMemory } from "../shared/memory";
import { humanMessage, messageText } from "../shared/messages";

/** System message + windowed history (when a memory is connected) + the question → chat model. */
export class ConversationFlowChain extends FlowChain {
  constructor(
    private readonly model: BaseChatModel,
    private readonly systemMessage: string,
    private readonly chatMemory?: ChatHistoryMemory,
  ) {
    super({});
  }

  _chainType() {
    return "switchyard_conversation_chain";
  }

  protected async answer(turn: ChainTurn, runManager?: CallbackManagerForChainRun): Promise<string> {
    const messages = [
      ...(this.systemMessage ? [new SystemMessage(this.systemMessage)] : []),
      ...(this.chatMemory ? this.chatMemory.messagesFor(turn.history) : []),
      humanMessage(turn.question, turn.images),
    ];
    const reply = await this.model.invoke(messages, childConfig(runManager, turn.signal));
    return messageText(reply);
  }
}

/** Builds the conversation chain from its model, optional memory and system message. */
export const buildConversationChain: RuntimeOf<typeof conversationChainDefinition> = async ({ inputs, params }) =>
  new ConversationFlowChain(inputs.model, params.systemMessage, inputs.memory);
