import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage } from "@langchain/core/messages";
import type { BasePromptTemplate } from "@langchain/core/prompts";
import type { RuntimeOf } from "../define";
import type { llmChainDefinition } from "./definition";
import { childConfig, FlowChain, type ChainTurn } from "../shared/flow-chain";
import { messageText, withImages } from "../shared/messages";
import { turnValues } from "../shared/prompts";

/** Prompt → chat model. Open prompt variables receive the question, the history or a chain's answer (turnValues). */
export class PromptLlmChain extends FlowChain {
  constructor(
    private readonly model: BaseChatModel,
    private readonly prompt: BasePromptTemplate,
  ) {
    super({});
  }

  _chainType() {
    return "switchyard_llm_chain";
  }

  protected async answer(turn: ChainTurn, runManager?: CallbackManagerForChainRun): Promise<string> {
    const value = await this.prompt.formatPromptValue(await turnValues(this.prompt, turn, runManager));
    const messages = value.toChatMessages();
    const last = messages.length - 1;
    if (turn.images.length > 0 && last >= 0 && HumanMessage.isInstance(messages[last])) {
      messages[last] = withImages(messages[last], turn.images);
    }
    const reply = await this.model.invoke(messages, childConfig(runManager, turn.signal));
    return messageText(reply);
  }
}

/** Builds the LLM chain from its model and prompt inputs. */
export const buildLlmChain: RuntimeOf<typeof llmChainDefinition> = async ({ inputs }) =>
  new PromptLlmChain(inputs.model, inputs.prompt);
