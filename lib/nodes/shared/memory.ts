import type { BaseMessage } from "@langchain/core/messages";
import type { HistoryMessage } from "../../flow/types";

/**
 * What a memory node builds. Memory nodes never write anywhere: the prediction service stores every
 * exchange and passes the session's history into the run; a memory node only decides which part of
 * that history the chain or agent sees. Stateless, so one built flow serves concurrent sessions.
 */
export interface ChatHistoryMemory {
  readonly memoryType: string;
  /**
   * The most messages of the history it ever shows (the last ones); unset: all. The prediction
   * service reads no more stored messages than this from the database.
   */
  readonly window?: number;
  /** The messages the model should see before the new question. */
  messagesFor(history: HistoryMessage[]): BaseMessage[];
}

/** Type guard for a built memory input. */
export function isChatHistoryMemory(x: unknown): x is ChatHistoryMemory {
  return typeof x === "object" && x !== null && typeof (x as ChatHistoryMemory).messagesFor === "function";
}
