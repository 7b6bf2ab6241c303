import { anchor, defineMapping, param, toText } from "../rules";

/** Flowise "Simple Prompt Moderation" → ours (deny list, answer, optional model for the similarity check). */
export const inputModerationSimple = defineMapping({
  flowise: "inputModerationSimple",
  type: "inputModerationSimple",
  inputs: {
    denyList: param("denyList", toText),
    moderationErrorMessage: param("moderationErrorMessage", toText),
    model: anchor("model"),
  },
  outputs: { inputModerationSimple: "moderation" },
});
