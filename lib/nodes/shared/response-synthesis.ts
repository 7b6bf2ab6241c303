import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage } from "@langchain/core/messages";
import { NO_STREAM_TAG } from "../events";
import { childConfig } from "./flow-chain";
import { messageText } from "./messages";
import { DEFAULT_REFINE_PROMPT, DEFAULT_TEXT_QA_PROMPT, DEFAULT_TREE_SUMMARIZE_PROMPT } from "./query-engine-data";

export { QT } from "./query-engine-data";

/**
 * Response synthesis of the query engines (LlamaIndex's response synthesizers, our own code): how
 * the chunks found for a query become one answer from the model. The prompts use LlamaIndex's
 * variables: {context}, {query} and, in a refine prompt, {existingAnswer}.
 *   simple:        every chunk in one prompt, one call.
 *   refine:        an answer from the first chunk, then one refine call per further chunk.
 *   compactRefine: chunks packed into as few prompts as fit PACK_CHARS, then refine across packs.
 *   treeSummarize: packs answered one by one, those answers packed and answered again, until one
 *                  (answers that pack no smaller go into one last prompt).
 */

/**
 * Characters of chunks packed into one prompt (compact and tree modes). LlamaIndex packs by the
 * model's context window in tokens; we do not know the window of every model here, so a fixed
 * budget of about 3,000 tokens that any chat model takes.
 */
export const PACK_CHARS = 12_000;

export type SynthesisMode = "simple" | "refine" | "compactRefine" | "treeSummarize";

export interface ResponseSynthesizer {
  readonly kind: "responseSynthesizer";
  readonly mode: SynthesisMode;
  readonly textQAPrompt: string;
  readonly refinePrompt: string;
}

/** Makes a synthesizer (the nodes' built object). Tree summarize's prompt is its text QA prompt. */
export function responseSynthesizer(
  mode: SynthesisMode,
  prompts: { textQAPrompt?: string; refinePrompt?: string } = {},
): ResponseSynthesizer {
  const textQA = mode === "treeSummarize" ? DEFAULT_TREE_SUMMARIZE_PROMPT : DEFAULT_TEXT_QA_PROMPT;
  return {
    kind: "responseSynthesizer",
    mode,
    textQAPrompt: prompts.textQAPrompt?.trim() ? prompts.textQAPrompt : textQA,
    refinePrompt: prompts.refinePrompt?.trim() ? prompts.refinePrompt : DEFAULT_REFINE_PROMPT,
  };
}

/** LlamaIndex's default: compact and refine with the default prompts. */
export const DEFAULT_SYNTHESIZER = responseSynthesizer("compactRefine");

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (m, key: string) => (Object.hasOwn(values, key) ? values[key] : m));

/** Chunks joined into packs of at most PACK_CHARS (a longer chunk is a pack of its own). */
export function packChunks(chunks: readonly string[], budget = PACK_CHARS): string[] {
  const packs: string[] = [];
  let current = "";
  for (const chunk of chunks) {
    if (current && current.length + 2 + chunk.length > budget) {
      packs.push(current);
      current = "";
    }
    current = current ? `${current}\n\n${chunk}` : chunk;
  }
  if (current) packs.push(current);
  return packs;
}

export interface SynthesisCall {
  model: BaseChatModel;
  query: string;
  chunks: readonly string[];
  runManager?: CallbackManagerForChainRun;
  signal?: AbortSignal;
  /** The last model call is streamed to the user (the others never are). */
  stream: boolean;
}

/** One answer from the chunks, by the synthesizer's mode (see the top of this file). */
export async function synthesize(synth: ResponseSynthesizer, call: SynthesisCall): Promise<string> {
  const { model, query, runManager, signal } = call;
  const ask = async (prompt: string, last: boolean) => {
    const tags = last && call.stream ? undefined : [NO_STREAM_TAG];
    const reply = await model.invoke([new HumanMessage(prompt)], childConfig(runManager, signal, tags));
    return messageText(reply);
  };
  const chunks = call.chunks.length ? call.chunks : ["(no matching documents)"];
  if (synth.mode === "simple") return ask(fill(synth.textQAPrompt, { context: chunks.join("\n\n"), query }), true);
  if (synth.mode === "treeSummarize") {
    let level = packChunks(chunks);
    while (level.length > 1) {
      const answers: string[] = [];
      for (const pack of level) answers.push(await ask(fill(synth.textQAPrompt, { context: pack, query }), false));
      // Answers as long as their chunks would never fit fewer packs: then they go in one prompt.
      const next = packChunks(answers);
      level = next.length < level.length ? next : [answers.join("\n\n")];
    }
    return ask(fill(synth.textQAPrompt, { context: level[0], query }), true);
  }
  const parts = synth.mode === "compactRefine" ? packChunks(chunks) : [...chunks];
  let answer = await ask(fill(synth.textQAPrompt, { context: parts[0], query }), parts.length === 1);
  for (let i = 1; i < parts.length; i++)
    answer = await ask(
      fill(synth.refinePrompt, { context: parts[i], query, existingAnswer: answer }),
      i === parts.length - 1,
    );
  return answer;
}
