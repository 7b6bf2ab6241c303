import type { Context, Span } from "@opentelemetry/api";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Serialized } from "@langchain/core/load/serializable";
import type { LLMResult } from "@langchain/core/outputs";
import { processState } from "../state/registry";
import { spanFailed, tracing, tracingOn } from "./traces";

/**
 * The spans of a chatflow's run inside LangChain: each chain (the nodes of the flow at run time: the
 * agent, a chain behind a Chain Tool…), each model call (provider, model, tokens when reported) and
 * each tool call, nested by LangChain's own run ids. A callback handler sees runs start and end but
 * does not run them, so the span a tool's own work belongs under (its outbound HTTP call) is found by
 * `innerRunContext` (used by lib/telemetry/traces.ts's inSpan).
 */

// Shared by every bundle of the process (the instrumentation hook's and each route's): run id → span.
const runs = processState("tracingRuns", () => new Map<string, { span: Span; context: Context; traceId: string }>());

/** The handlers a run adds to its callbacks: this one while tracing, none otherwise. */
export function traceCallbacks(): BaseCallbackHandler[] {
  return tracingOn() ? [new TracingCallbackHandler()] : [];
}

/**
 * The context of the innermost LangChain run still open in the trace now running: the parent of a
 * call made inside it (a tool's HTTP call, a model's own request). A callback handler cannot make its
 * span the active one, and LangChain's own async context is not set along a chain's calls, so the
 * latest run opened in this trace and not yet ended stands for it; two tools of one run working at
 * the same time may swap their calls' parents.
 */
export function innerRunContext(): Context | undefined {
  if (runs.size === 0) return undefined;
  const t = tracing();
  const traceId = t?.api.trace.getSpan(t.api.context.active())?.spanContext().traceId;
  if (!traceId) return undefined;
  let innermost: Context | undefined;
  for (const run of runs.values()) if (run.traceId === traceId) innermost = run.context;
  return innermost;
}

function tokensOf(output: LLMResult): { input?: number; output?: number } {
  const reported = output.llmOutput?.tokenUsage as { promptTokens?: number; completionTokens?: number } | undefined;
  if (reported?.promptTokens !== undefined || reported?.completionTokens !== undefined)
    return { input: reported.promptTokens, output: reported.completionTokens };
  const message = (output.generations?.[0]?.[0] as { message?: { usage_metadata?: Record<string, number> } })?.message;
  const usage = message?.usage_metadata;
  return usage ? { input: usage.input_tokens, output: usage.output_tokens } : {};
}

function lastId(serialized: Serialized | undefined): string | undefined {
  const id = (serialized as { id?: string[] } | undefined)?.id;
  return Array.isArray(id) ? id[id.length - 1] : undefined;
}

/** Opens, ends and fails the spans of LangChain's runs (awaited: it runs in the run's own async context). */
export class TracingCallbackHandler extends BaseCallbackHandler {
  name = "switchyard_tracing";
  awaitHandlers = true;

  private open(runId: string, parentRunId: string | undefined, name: string, attributes: Record<string, unknown>) {
    const t = tracing();
    if (!t) return;
    const parent = (parentRunId && runs.get(parentRunId)?.context) || t.api.context.active();
    const clean: Record<string, string | number | boolean> = {};
    for (const [k, v] of Object.entries(attributes))
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") clean[k] = v;
    const span = t.tracer.startSpan(name, { attributes: clean }, parent);
    runs.set(runId, { span, context: t.api.trace.setSpan(parent, span), traceId: span.spanContext().traceId });
  }

  private close(runId: string, err?: unknown, more?: Record<string, number | undefined>) {
    const run = runs.get(runId);
    if (!run) return;
    runs.delete(runId);
    for (const [k, v] of Object.entries(more ?? {})) if (v !== undefined) run.span.setAttribute(k, v);
    if (err !== undefined) spanFailed(run.span, err);
    run.span.end();
  }

  async handleChainStart(
    chain: Serialized,
    _inputs: unknown,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    _runType?: string,
    runName?: string,
  ) {
    const name = runName ?? lastId(chain) ?? "chain";
    this.open(runId, parentRunId, `chain ${name}`, { "switchyard.langchain.run": name });
  }
  async handleChainEnd(_outputs: unknown, runId: string) {
    this.close(runId);
  }
  async handleChainError(err: unknown, runId: string) {
    this.close(runId, err);
  }

  async handleChatModelStart(
    llm: Serialized,
    _messages: unknown,
    runId: string,
    parentRunId?: string,
    extraParams?: Record<string, unknown>,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ) {
    const invocation = (extraParams?.invocation_params ?? {}) as { model?: unknown; model_name?: unknown };
    const model = metadata?.ls_model_name ?? invocation.model ?? invocation.model_name;
    const provider = metadata?.ls_provider ?? lastId(llm);
    this.open(runId, parentRunId, `chat ${typeof model === "string" ? model : "model"}`, {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": provider,
      "gen_ai.request.model": model,
    });
  }
  async handleLLMStart(
    llm: Serialized,
    _prompts: string[],
    runId: string,
    parentRunId?: string,
    extraParams?: Record<string, unknown>,
    tags?: string[],
    metadata?: Record<string, unknown>,
  ) {
    await this.handleChatModelStart(llm, undefined, runId, parentRunId, extraParams, tags, metadata);
  }
  async handleLLMEnd(output: LLMResult, runId: string) {
    const tokens = tokensOf(output);
    this.close(runId, undefined, {
      "gen_ai.usage.input_tokens": tokens.input,
      "gen_ai.usage.output_tokens": tokens.output,
    });
  }
  async handleLLMError(err: unknown, runId: string) {
    this.close(runId, err);
  }

  async handleToolStart(
    tool: Serialized,
    _input: string,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    runName?: string,
  ) {
    const name = runName ?? (tool as { name?: string }).name ?? lastId(tool) ?? "tool";
    this.open(runId, parentRunId, `execute_tool ${name}`, {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": name,
    });
  }
  async handleToolEnd(_output: unknown, runId: string) {
    this.close(runId);
  }
  async handleToolError(err: unknown, runId: string) {
    this.close(runId, err);
  }
}
