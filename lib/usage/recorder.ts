import { AsyncLocalStorage } from "node:async_hooks";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { CallbackManager } from "@langchain/core/callbacks/manager";
import type { Serialized } from "@langchain/core/load/serializable";
import type { BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { configuredModel, promptChars, type RunUsage, UsageTally } from "./tally";
import { traceCallbacks } from "../telemetry/langchain";

/** A callback handler that only counts model tokens (UsageTally), for runs without a RunRecorder. */
export class UsageRecorder extends BaseCallbackHandler {
  name = "switchyard_usage_recorder";
  awaitHandlers = true;
  readonly tally = new UsageTally();

  async handleChatModelStart(
    _l: Serialized,
    messages: BaseMessage[][],
    runId: string,
    _p?: string,
    extraParams?: unknown,
    _t?: string[],
    metadata?: unknown,
  ) {
    this.tally.start(runId, configuredModel(extraParams, metadata), promptChars(messages));
  }

  async handleLLMStart(
    _l: Serialized,
    prompts: string[],
    runId: string,
    _p?: string,
    extraParams?: unknown,
    _t?: string[],
    metadata?: unknown,
  ) {
    this.tally.start(runId, configuredModel(extraParams, metadata), promptChars(prompts));
  }

  async handleLLMEnd(output: LLMResult, runId: string) {
    this.tally.end(runId, output);
  }

  /**
   * Runs `fn` with this recorder added to the implicit callbacks already around it (an agentflow
   * step's calls, counted apart and still by the run's recorder).
   */
  around<T>(fn: () => Promise<T>): Promise<T> {
    const parent = AsyncLocalStorageProviderSingleton.getRunnableConfig();
    const outer = parent?.callbacks;
    const callbacks =
      outer instanceof CallbackManager ? outer.copy([this]) : [...(Array.isArray(outer) ? outer : []), this];
    return AsyncLocalStorageProviderSingleton.runWithConfig({ ...parent, callbacks }, fn);
  }
}

// LangChain's implicit config needs its AsyncLocalStorage (set by whichever LangChain module loads
// first; a no-op when one is set already).
AsyncLocalStorageProviderSingleton.initializeGlobalInstance(new AsyncLocalStorage());

/**
 * Runs `fn` with a UsageRecorder as the implicit callback of every LangChain call made inside it
 * that passes no callbacks of its own (an agentflow's model steps call `model.invoke(messages,
 * { signal })`). This reads LangChain's documented implicit config (runnables' ensureConfig merges
 * the AsyncLocalStorage config into each call's); tests/integration/usage.test.ts guards it: an
 * agentflow's usage must match the scripted model's reported tokens.
 */
export async function withUsageRecorder<T>(fn: () => Promise<T>): Promise<{ value: T; usage?: RunUsage }> {
  const recorder = new UsageRecorder();
  // While tracing, the same implicit config gives each model call its span (lib/telemetry/langchain.ts).
  const callbacks = [recorder, ...traceCallbacks()];
  const value = await AsyncLocalStorageProviderSingleton.runWithConfig({ callbacks }, fn);
  const usage = recorder.tally.summary();
  return { value, ...(usage ? { usage } : {}) };
}
