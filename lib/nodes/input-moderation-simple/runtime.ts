import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { RuntimeOf } from "../define";
import { NO_STREAM_TAG } from "../events";
import { messageText } from "../shared/messages";
import type { FlowModeration } from "../shared/moderation";
import type { inputModerationSimpleDefinition } from "./definition";

/**
 * A deny list: an input containing a phrase (case-insensitive) is refused without asking any model;
 * with a model, each phrase is then put to it with the input (Flowise's similarity question).
 */
export function denyListModeration(denyList: string, answer: string, model?: BaseChatModel): FlowModeration {
  const phrases = denyList
    .split("\n")
    .map((p) => p.trim())
    .filter(Boolean);
  return {
    async check(input: string, config: RunnableConfig) {
      const lower = input.toLowerCase();
      if (phrases.some((p) => lower.includes(p.toLowerCase()))) return answer;
      if (!model) return undefined;
      const quiet = { ...config, tags: [...(config.tags ?? []), NO_STREAM_TAG] };
      for (const phrase of phrases) {
        const question = `Are these two sentences similar to each other? Only return Yes or No.\nFirst sentence: ${input}\nSecond sentence: ${phrase}`;
        const reply = messageText(await model.invoke(question, quiet));
        if (/\byes\b/i.test(reply)) return answer;
      }
      return undefined;
    },
  };
}

/** Builds the inputModerationSimple node's object. */
export const buildInputModerationSimple: RuntimeOf<typeof inputModerationSimpleDefinition> = async ({
  params,
  inputs,
}) => denyListModeration(params.denyList, params.moderationErrorMessage, inputs.model);
