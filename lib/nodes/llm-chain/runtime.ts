import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage } from "@langchain/core/messages";
import type { BasePromptTemplate } from "@langchain/core/prompts";
import type { RuntimeOf } from "../define";
import type { llmChainDefinition } from "./definition";
import { childConfig, FlowChain, type ChainTurn } from "../shared/flow-chain";
import { messageText, withImages } from "../shared/messages";
import { type FlowModeration, moderate } from "../shared/moderation";
import { askWithParser, type FlowOutputParser } from "../shared/output-parser";
import { turnValues } from "../shared/prompts";

/**
 * Moderation → prompt → chat model (→ output parser). A flagged input is answered with the
 * moderation's message and nothing else runs. Open prompt variables receive the question, the
 * history or a chain's answer (turnValues).
 */
export class PromptLlmChain extends FlowChain {
  constructor(
    private readonly model: BaseChatModel,
    private readonly prompt: BasePromptTemplate,
    private readonly parser?: FlowOutputParser,
    private readonly moderations: readonly FlowModeration[] = [],
  ) {
    super({});
  }

  _chainType() {
    return "switchyard_llm_chain";
  }

  protected async answer(turn: ChainTurn, runManager?: CallbackManagerForChainRun): Promise<string> {
    const refusal = await moderate(this.moderations, turn.question, childConfig(runManager, turn.signal));
    if (refusal !== undefined) return refusal;
    const value = await this.prompt.formatPromptValue(await turnValues(this.prompt, turn, runManager));
    const messages = value.toChatMessages();
    const last = messages.length - 1;
    if (turn.images.length > 0 && last >= 0 && HumanMessage.isInstance(messages[last])) {
      messages[last] = withImages(messages[last], turn.images);
    }
    if (this.parser) return askWithParser(this.model, messages, this.parser, runManager, turn.signal);
    const reply = await this.model.invoke(messages, childConfig(runManager, turn.signal));
    return messageText(reply);
  }
}

/** Builds the LLM chain from its model, prompt, optional output parser and moderations. */
export const buildLlmChain: RuntimeOf<typeof llmChainDefinition> = async ({ inputs }) =>
  new PromptLlmChain(inputs.model, inputs.prompt, inputs.outputParser, inputs.inputModeration);
