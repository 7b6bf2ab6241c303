import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import type { SourceDocument } from "../../flow/types";
import { retrieveDocuments } from "../../vector/fusion";
import { recordSourceDocuments } from "../events";
import { childConfig, FlowChain, type ChainTurn } from "./flow-chain";
import { DEFAULT_SYNTHESIZER, type ResponseSynthesizer, synthesize } from "./response-synthesis";

/**
 * Query engines (LlamaIndex's, our own code on our retrievers): a question answered from documents
 * without the conversation. Both are chains, so they end a flow; a query engine also feeds a Query
 * Engine Tool for the sub-question engine (or an agent).
 */

/** What a query engine answers: the text and the chunks it used. */
export interface QueryAnswer {
  text: string;
  sourceDocuments: SourceDocument[];
}

export interface QueryOptions {
  runManager?: CallbackManagerForChainRun;
  signal?: AbortSignal;
  /** Stream the answer's last model call to the user. */
  stream: boolean;
}

/** The object a query engine node builds (and a query engine tool holds). */
export interface QueryEngine {
  query(question: string, opts: QueryOptions): Promise<QueryAnswer>;
}

export interface RetrieverQueryEngineOptions {
  model: BaseChatModel;
  retriever: BaseRetrieverInterface;
  synthesizer?: ResponseSynthesizer;
  returnSourceDocuments: boolean;
}

/** Retrieves the chunks for the question, then synthesises the answer from them. */
export class RetrieverQueryEngine extends FlowChain implements QueryEngine {
  constructor(private readonly opts: RetrieverQueryEngineOptions) {
    super({});
  }

  _chainType() {
    return "switchyard_query_engine";
  }

  async query(question: string, { runManager, signal, stream }: QueryOptions): Promise<QueryAnswer> {
    const docs = await retrieveDocuments([this.opts.retriever], question, childConfig(runManager, signal));
    const text = await synthesize(this.opts.synthesizer ?? DEFAULT_SYNTHESIZER, {
      model: this.opts.model,
      query: question,
      chunks: docs.map((d) => d.pageContent),
      runManager,
      signal,
      stream,
    });
    return { text, sourceDocuments: docs };
  }

  protected async answer(turn: ChainTurn, runManager?: CallbackManagerForChainRun): Promise<string> {
    const { text, sourceDocuments } = await this.query(turn.question, {
      runManager,
      signal: turn.signal,
      stream: true,
    });
    if (this.opts.returnSourceDocuments) await recordSourceDocuments(runManager, sourceDocuments);
    return text;
  }
}

/** A query engine with the name and description a model chooses it by. */
export interface QueryEngineToolSpec {
  readonly kind: "queryEngineTool";
  readonly name: string;
  readonly description: string;
  readonly engine: QueryEngine;
}

export const isQueryEngine = (x: unknown): x is QueryEngine =>
  typeof x === "object" && x !== null && typeof (x as QueryEngine).query === "function";
