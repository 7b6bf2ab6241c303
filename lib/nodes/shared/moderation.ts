import type { RunnableConfig } from "@langchain/core/runnables";

/**
 * Input moderation of the LLM chain (the Moderation nodes build one): the user's input is checked
 * before any model of the chain is asked; a flagged input is answered with the node's message.
 */
export interface FlowModeration {
  /** The answer to give instead of running the chain, or undefined when the input may go on. */
  check(input: string, config: RunnableConfig): Promise<string | undefined>;
}

/** Whether a built input is a moderation (what the Moderation nodes build). */
export function isModeration(value: unknown): value is FlowModeration {
  return !!value && typeof value === "object" && typeof (value as FlowModeration).check === "function";
}

/** The first refusal of the moderations, in order (each runs only when the ones before passed). */
export async function moderate(
  moderations: readonly FlowModeration[],
  input: string,
  config: RunnableConfig,
): Promise<string | undefined> {
  for (const m of moderations) {
    const refusal = await m.check(input, config);
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}
