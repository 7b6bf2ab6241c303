import type { BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import type { ModelTokens } from "./prices";

/**
 * Tokens of one run's model calls, per model. A call's tokens are what its provider reported
 * (LangChain's usage_metadata, or the older llmOutput.tokenUsage); a provider that reports none
 * gets an estimate of one token per 4 characters of prompt and answer, and the run is marked
 * `estimated`. Why 4 characters and not a tokenizer (js-tiktoken): it is OpenAI's documented rule
 * of thumb for English text, costs nothing on the hot path (no rank tables to load, no encoding of
 * every prompt), and a tokenizer would only be exact for OpenAI's own models anyway (Claude, Gemini
 * and Mistral count with tokenizers of their own); it is an estimate and says so.
 */

export const CHARS_PER_TOKEN = 4;

/** Tokens estimated from a length in characters (at least 1 for any text). */
export function estimateTokens(chars: number): number {
  return chars > 0 ? Math.ceil(chars / CHARS_PER_TOKEN) : 0;
}

/** An answer's usage: its totals, whether any part was estimated, and each model's share. */
export interface RunUsage {
  promptTokens: number;
  completionTokens: number;
  estimated: boolean;
  models: ModelTokens[];
}

type Reported = { input_tokens?: number; output_tokens?: number };

function textLength(content: unknown): number {
  if (typeof content === "string") return content.length;
  if (!Array.isArray(content)) return 0;
  return content.reduce((n: number, p) => n + (typeof p?.text === "string" ? p.text.length : 0), 0);
}

/** Characters of the messages of a chat model call (text parts only; images are not counted). */
export function promptChars(messages: BaseMessage[][] | string[]): number {
  let n = 0;
  for (const m of messages) n += Array.isArray(m) ? m.reduce((k, x) => k + textLength(x.content), 0) : m.length;
  return n;
}

export class UsageTally {
  private readonly started = new Map<string, { model?: string; promptChars: number }>();
  private readonly byModel = new Map<string, ModelTokens>();
  private estimated = false;
  private calls = 0;

  /** A model call begins: its model as configured (the answer's own name wins) and its prompt size. */
  start(runId: string, model: string | undefined, chars: number): void {
    this.started.set(runId, { ...(model ? { model } : {}), promptChars: chars });
  }

  /** A model call ended: counts what its provider reported, or an estimate. */
  end(runId: string, output: LLMResult): void {
    const begun = this.started.get(runId);
    this.started.delete(runId);
    const generation = output.generations?.[0]?.[0] as
      | { text?: string; message?: { usage_metadata?: Reported; response_metadata?: Record<string, unknown> } }
      | undefined;
    const meta = generation?.message?.usage_metadata;
    const legacy = output.llmOutput?.tokenUsage as { promptTokens?: number; completionTokens?: number } | undefined;
    let prompt = meta?.input_tokens ?? legacy?.promptTokens;
    let completion = meta?.output_tokens ?? legacy?.completionTokens;
    if (prompt === undefined && completion === undefined) {
      prompt = estimateTokens(begun?.promptChars ?? 0);
      completion = estimateTokens(output.generations?.flat().reduce((n, g) => n + (g.text?.length ?? 0), 0) ?? 0);
      this.estimated = true;
    }
    const response = generation?.message?.response_metadata;
    const answered = response?.model_name ?? response?.model ?? output.llmOutput?.model_name;
    const model = (typeof answered === "string" && answered) || begun?.model || "unknown";
    const entry = this.byModel.get(model) ?? { model, promptTokens: 0, completionTokens: 0 };
    entry.promptTokens += prompt ?? 0;
    entry.completionTokens += completion ?? 0;
    this.byModel.set(model, entry);
    this.calls += 1;
  }

  /** The run's usage, or undefined when it called no model. */
  summary(): RunUsage | undefined {
    if (!this.calls) return undefined;
    const models = [...this.byModel.values()];
    return {
      promptTokens: models.reduce((n, m) => n + m.promptTokens, 0),
      completionTokens: models.reduce((n, m) => n + m.completionTokens, 0),
      estimated: this.estimated,
      models,
    };
  }
}

/** The model a LangChain start callback names (invocation params, else LangSmith's metadata). */
export function configuredModel(extraParams: unknown, metadata: unknown): string | undefined {
  const params = (extraParams as { invocation_params?: { model?: unknown; model_name?: unknown } } | undefined)
    ?.invocation_params;
  const named =
    params?.model ?? params?.model_name ?? (metadata as { ls_model_name?: unknown } | undefined)?.ls_model_name;
  return typeof named === "string" && named ? named : undefined;
}
