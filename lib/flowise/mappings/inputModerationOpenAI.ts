import { defineMapping, param, toText } from "../rules";

/** Flowise "OpenAI Moderation" → ours (the credential is connected again after import). */
export const inputModerationOpenAI = defineMapping({
  flowise: "inputModerationOpenAI",
  type: "inputModerationOpenAI",
  credential: "credential",
  inputs: { moderationErrorMessage: param("moderationErrorMessage", toText) },
  outputs: { inputModerationOpenAI: "moderation" },
});
