import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import { formatContext, retrieveDocuments } from "../../vector/fusion";
import type { RuntimeOf } from "../define";
import type { conversationalRetrievalQAChainDefinition } from "./definition";
import { NO_STREAM_TAG, recordSourceDocuments } from "../events";
import { childConfig, FlowChain, type ChainTurn } from "../shared/flow-chain";
import type { ChatHistoryMemory } from "../shared/memory";
import { humanMessage, messageText } from "../shared/messages";

export interface RetrievalQAOptions {
  model: BaseChatModel;
  retrievers: BaseRetrieverInterface[];
  memory?: ChatHistoryMemory;
  systemMessage: string;
  rephrasePrompt: string;
  returnSourceDocuments: boolean;
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (m, key: string) => (Object.hasOwn(values, key) ? values[key] : m));

function transcript(messages: BaseMessage[]): string {
  return messages.map((m) => `${m.type === "human" ? "User" : "Assistant"}: ${messageText(m)}`).join("\n");
}

/**
 * Retrieval QA with conversation: (1) with history, the model rephrases the question into a
 * standalone one (not streamed to the user); (2) the retrievers find chunks for it; (3) the model
 * answers from those chunks, history and the original question (streamed). The chunks are reported
 * as the run's source documents.
 */
export class RetrievalQAChain extends FlowChain {
  constructor(private readonly opts: RetrievalQAOptions) {
    super({});
  }

  _chainType() {
    return "switchyard_conversational_retrieval_qa";
  }

  private async standaloneQuestion(
    question: string,
    history: BaseMessage[],
    runManager?: CallbackManagerForChainRun,
    signal?: AbortSignal,
  ) {
    if (history.length === 0) return question;
    const prompt = fill(this.opts.rephrasePrompt, { chat_history: transcript(history), question });
    const reply = await this.opts.model.invoke(
      [new HumanMessage(prompt)],
      childConfig(runManager, signal, [NO_STREAM_TAG]),
    );
    return messageText(reply).trim() || question;
  }

  protected async answer(turn: ChainTurn, runManager?: CallbackManagerForChainRun): Promise<string> {
    const history = this.opts.memory ? this.opts.memory.messagesFor(turn.history) : [];
    const query = await this.standaloneQuestion(turn.question, history, runManager, turn.signal);
    const docs = await retrieveDocuments(this.opts.retrievers, query, childConfig(runManager, turn.signal));
    if (this.opts.returnSourceDocuments) await recordSourceDocuments(runManager, docs);
    const context = docs.length ? formatContext(docs) : "(no matching documents)";
    const messages = [
      new SystemMessage(fill(this.opts.systemMessage, { context })),
      ...history,
      humanMessage(turn.question, turn.images),
    ];
    const reply = await this.opts.model.invoke(messages, childConfig(runManager, turn.signal));
    return messageText(reply);
  }
}

/** Builds the chain from its model, retrievers (fused when several) and optional memory. */
export const buildConversationalRetrievalQAChain: RuntimeOf<typeof conversationalRetrievalQAChainDefinition> = async ({
  params,
  inputs,
}) =>
  new RetrievalQAChain({
    model: inputs.model,
    retrievers: inputs.retriever,
    memory: inputs.memory,
    systemMessage: params.systemMessage,
    rephrasePrompt: params.rephrasePrompt,
    returnSourceDocuments: params.returnSourceDocuments,
  });
