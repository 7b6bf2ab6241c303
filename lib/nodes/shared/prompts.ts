import type { BasePromptTemplate } from "@langchain/core/prompts";

/** Fills the template variables that have a fixed value; unknown keys are ignored. */
export async function partialWithValues<P extends BasePromptTemplate>(prompt: P, values: unknown): Promise<P> {
  if (!values || typeof values !== "object" || Array.isArray(values)) return prompt;
  const known = Object.entries(values as Record<string, unknown>).filter(([k]) => prompt.inputVariables.includes(k));
  if (known.length === 0) return prompt;
  return (await prompt.partial(Object.fromEntries(known.map(([k, v]) => [k, String(v)])))) as P;
}

/** Values for every open variable of a prompt: each one receives the question. */
export function questionValues(prompt: BasePromptTemplate, question: string): Record<string, string> {
  return Object.fromEntries(prompt.inputVariables.map((v) => [v, question]));
}
