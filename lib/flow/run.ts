import type { BaseChain } from "@langchain/classic/chains";
import { RunRecorder } from "./run-recorder";
import { toRunError } from "./run-errors";
import { traceCallbacks } from "../telemetry/langchain";
import type { RunInput, RunResult } from "./types";

/**
 * Runs a flow's ending chain for one request. Tokens of the answer go to `onToken` (the whole
 * answer once when the model could not stream); tool calls reported by the chain fill usedTools;
 * provider failures become upstream AppErrors.
 */
export async function runEndingChain(chain: BaseChain, input: RunInput, allowsImages: boolean): Promise<RunResult> {
  const recorder = new RunRecorder(input.onToken, input.onToolStart);
  const values = {
    input: input.question,
    history: input.history ?? [],
    images: allowsImages ? (input.images ?? []) : [],
    ...(input.signal ? { signal: input.signal } : {}),
  };
  try {
    const out = await chain.invoke(values, { callbacks: [recorder, ...traceCallbacks()], signal: input.signal });
    const text = typeof out.text === "string" ? out.text : String(out.text ?? "");
    // Models that cannot stream (or a returnDirect tool) produce no tokens: send the answer whole.
    if (input.onToken && recorder.tokenCount === 0 && text) input.onToken(text);
    const usage = recorder.usage.summary();
    return {
      text,
      usedTools: recorder.usedTools,
      ...(recorder.sourceDocuments.length ? { sourceDocuments: recorder.sourceDocuments } : {}),
      ...(usage ? { usage } : {}),
    };
  } catch (e) {
    throw toRunError(e, input.signal);
  }
}
