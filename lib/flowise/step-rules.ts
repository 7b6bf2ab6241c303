import { component, ignore, oneOf } from "./rules";
import type { Convert, InputRule } from "./types";

/**
 * Rules shared by the agentflow steps' mappings (./mappings/*Agentflow.ts). Their text is Flowise's
 * rich text, converted to ours with its variables before these run (./rich-text.ts), so variables
 * are kept, unlike a chatflow's text (toText refuses them).
 */

/** Text of a step (variables allowed). */
export const stepText: Convert = (value) =>
  typeof value === "string" || typeof value === "number"
    ? { value: String(value) }
    : { drop: "is not text (it may come from a connection we cannot import)" };

/** A Flowise list (messages, conditions, state updates…): an array, or its JSON text. */
export const jsonList: Convert = (value) => {
  let list = value;
  if (typeof value === "string") {
    try {
      list = JSON.parse(value);
    } catch {
      return { drop: "is not a JSON list" };
    }
  }
  return Array.isArray(list) ? { value: list } : { drop: "is not a list" };
};

/** One of our options, or dropped naming the Flowise value we have no equivalent of. */
export const optionOf =
  (...options: string[]): Convert =>
  (value) =>
    typeof value === "string" && options.includes(value)
      ? { value }
      : { drop: `"${String(value)}" has no equivalent here (${options.join(" or ")})` };

/** Flowise's memory types, all four ours too (lib/nodes/shared/memory-summary.ts). */
export const memoryType = optionOf("allMessages", "windowSize", "conversationSummary", "conversationSummaryBuffer");

/** The chat model a step embeds (`llmModel` + `llmModelConfig`): our model node, connected to `model`. */
export const embeddedModel = (config: string): InputRule => component("model", config, "chat model");

/**
 * How Flowise adds the step's answer to the conversation later steps remember (as a user or an
 * assistant message). Ours keeps a step's answer as its output; either value imports.
 */
export const returnResponseAs = ignore(
  "the step's answer is kept as its output for later steps",
  oneOf("userMessage", "assistantMessage"),
);

/** A Flowise boolean whose `true` has no equivalent here. */
export const offOnly = (what: string): InputRule => ignore(`${what} has no equivalent`, oneOf(false, "false"));
