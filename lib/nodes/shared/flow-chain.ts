import { BaseChain } from "@langchain/classic/chains";
import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { HistoryMessage, ImageUpload } from "../../flow/types";

/** One turn of a conversation as a chain receives it. */
export interface ChainTurn {
  question: string;
  /** Session history (only used by chains with a memory input). Empty when run as a tool. */
  history: HistoryMessage[];
  /** Images of the request (only given when the flow's model accepts them). */
  images: ImageUpload[];
  signal?: AbortSignal;
}

/** The values the engine passes to an ending chain's invoke(). */
export interface FlowChainValues {
  input: string;
  history?: HistoryMessage[];
  images?: ImageUpload[];
  signal?: AbortSignal;
}

/**
 * Base class of our chains: a real classic BaseChain with one input key ("input") and one output
 * key ("text"), so it runs as an ending node (invoke with history/images) and inside a ChainTool
 * (run(string), no history). Stateless: per-run data only travels in the call's values.
 */
export abstract class FlowChain extends BaseChain {
  get inputKeys(): string[] {
    return ["input"];
  }

  get outputKeys(): string[] {
    return ["text"];
  }

  /** Answers one turn; implemented by each chain. */
  protected abstract answer(turn: ChainTurn, runManager?: CallbackManagerForChainRun): Promise<string>;

  async _call(values: Record<string, unknown>, runManager?: CallbackManagerForChainRun, config?: RunnableConfig) {
    const turn: ChainTurn = {
      question: String(values.input ?? ""),
      history: Array.isArray(values.history) ? (values.history as HistoryMessage[]) : [],
      images: Array.isArray(values.images) ? (values.images as ImageUpload[]) : [],
      signal: (values.signal as AbortSignal | undefined) ?? config?.signal,
    };
    return { text: await this.answer(turn, runManager) };
  }
}

/** Config for a nested call: child callbacks (streaming, recording) and the run's abort signal. */
export function childConfig(runManager: CallbackManagerForChainRun | undefined, signal?: AbortSignal, tags?: string[]) {
  return { callbacks: runManager?.getChild(), signal, ...(tags ? { tags } : {}) };
}
