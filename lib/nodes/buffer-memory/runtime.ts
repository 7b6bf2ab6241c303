import type { HistoryMessage } from "../../flow/types";
import type { RuntimeOf } from "../define";
import type { ChatHistoryMemory } from "../shared/memory";
import { historyToMessages } from "../shared/messages";
import { bufferMemoryDefinition } from "./definition";

/** Builds a stateless window over the run's history: the last `windowSize` messages (or all). */
export const buildBufferMemory: RuntimeOf<typeof bufferMemoryDefinition> = async ({ params }) => {
  const { windowSize } = params;
  const memory: ChatHistoryMemory = {
    memoryType: bufferMemoryDefinition.label,
    ...(windowSize ? { window: windowSize } : {}),
    messagesFor: (history: HistoryMessage[]) => historyToMessages(windowSize ? history.slice(-windowSize) : history),
  };
  return memory;
};
