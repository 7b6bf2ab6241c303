import type { BaseChain } from "@langchain/classic/chains";
import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { BasePromptTemplate } from "@langchain/core/prompts";
import { NO_STREAM_TAG } from "../events";
import { childConfig, type ChainTurn } from "./flow-chain";

/** A `{{name}}` value of a prompt's values: filled per turn instead of fixed. */
const VARIABLE_VALUE = /^\s*\{\{\s*([^{}]+?)\s*\}\}\s*$/;

/** Where a prompt variable's value comes from each turn (the default: the question). */
export type PromptSource =
  | { kind: "question" }
  | { kind: "history" }
  | { kind: "chain"; chain: BaseChain; nodeId: string };

/** The per-turn sources of built prompts, by prompt object (set by the prompt nodes, read by the chains). */
const sources = new WeakMap<BasePromptTemplate, Readonly<Record<string, PromptSource>>>();

/**
 * Fills the template variables that have a fixed value (unknown keys are ignored) and records the
 * ones given as `{{question}}`, `{{chat_history}}` or `{{nodeId}}` (a chain connected to the
 * prompt, in `chains` by node id) to be filled each turn by `turnValues`.
 */
export async function partialWithValues<P extends BasePromptTemplate>(
  prompt: P,
  values: unknown,
  chains: ReadonlyMap<string, BaseChain> = new Map(),
): Promise<P> {
  if (!values || typeof values !== "object" || Array.isArray(values)) return prompt;
  const fixed: [string, string][] = [];
  const perTurn: Record<string, PromptSource> = {};
  for (const [k, v] of Object.entries(values as Record<string, unknown>)) {
    if (!prompt.inputVariables.includes(k)) continue;
    const name = typeof v === "string" ? VARIABLE_VALUE.exec(v)?.[1] : undefined;
    if (name === "question") perTurn[k] = { kind: "question" };
    else if (name === "chat_history") perTurn[k] = { kind: "history" };
    else if (name !== undefined && chains.has(name))
      perTurn[k] = { kind: "chain", chain: chains.get(name)!, nodeId: name };
    else fixed.push([k, v !== null && typeof v === "object" ? JSON.stringify(v) : String(v)]);
  }
  const filled = fixed.length ? ((await prompt.partial(Object.fromEntries(fixed))) as P) : prompt;
  if (Object.keys(perTurn).length) sources.set(filled, perTurn);
  return filled;
}

/** The chains connected to a prompt by node id (the build gives their ids in the same order). */
export function chainsById(
  chains: readonly BaseChain[] | undefined,
  ids: readonly string[] = [],
): Map<string, BaseChain> {
  return new Map((chains ?? []).flatMap((c, i) => (ids[i] ? [[ids[i], c] as const] : [])));
}

/** The history as lines `user: …` / `assistant: …` (Flowise's `{{chat_history}}`). */
export function historyText(turn: Pick<ChainTurn, "history">): string {
  return turn.history.map((m) => `${m.role === "userMessage" ? "user" : "assistant"}: ${m.content}`).join("\n");
}

/**
 * Values for every open variable of a prompt for one turn: the question, the history, or the
 * answer of a chain feeding the prompt (run now with the same question and history, its tokens
 * not streamed: only the flow's last chain answers the user). Chains run one after another, in
 * the order of the variables.
 */
export async function turnValues(
  prompt: BasePromptTemplate,
  turn: ChainTurn,
  runManager?: CallbackManagerForChainRun,
): Promise<Record<string, string>> {
  const perTurn = sources.get(prompt) ?? {};
  const values: Record<string, string> = {};
  for (const v of prompt.inputVariables) {
    const source = perTurn[v] ?? { kind: "question" };
    if (source.kind === "question") values[v] = turn.question;
    else if (source.kind === "history") values[v] = historyText(turn);
    else {
      const out = await source.chain.invoke(
        { input: turn.question, history: turn.history, ...(turn.signal ? { signal: turn.signal } : {}) },
        childConfig(runManager, turn.signal, [NO_STREAM_TAG]),
      );
      values[v] = typeof out.text === "string" ? out.text : JSON.stringify(out.text ?? "");
    }
  }
  return values;
}
