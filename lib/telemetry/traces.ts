/**
 * The spans our code makes (docs/operations.md, "Traces"). Tracing is on only when start-up found an
 * OTLP endpoint (lib/telemetry/start.ts); until then every function here returns at its first line:
 * no OpenTelemetry module is loaded, no span object made, no context switched. The prediction path
 * calls these on every request, so off must cost a property read.
 *
 * Spans: the HTTP request (lib/http/route.ts), the run (lib/jobs/transport.ts, across the queue hop
 * through the job's `traceparent`), each agentflow step (lib/agentflow/engine.ts), the chatflow's
 * chains, model calls and tools (lib/telemetry/langchain.ts), each outbound HTTP call
 * (lib/security/outbound.ts) and each database statement (Prisma's own `db_query` spans).
 */
import type * as OtelApi from "@opentelemetry/api";
import { processState } from "../state/registry";

export type SpanAttributes = Record<string, string | number | boolean | undefined>;
type Api = typeof OtelApi;

interface TracingState {
  api?: Api;
  tracer?: OtelApi.Tracer;
  /** The span of a LangChain run now running (a tool), for calls made inside it (lib/telemetry/langchain.ts). */
  innerParent?: () => OtelApi.Context | undefined;
}

// One per process, shared by the instrumentation hook's bundle and every route's ("tracing" in the catalogue).
const state = processState("tracing", (): TracingState => ({}));

/** Whether spans are recorded (an OTLP endpoint was configured at start). */
export function tracingOn(): boolean {
  return state.tracer !== undefined;
}

/** Called once by start.ts with the registered API and our tracer; `undefined` turns tracing off (tests). */
export function setTracer(api: Api | undefined, tracer: OtelApi.Tracer | undefined): void {
  state.api = api;
  state.tracer = tracer;
}

/** Lets calls made inside a LangChain tool find the tool's span (set by lib/telemetry/langchain.ts). */
export function setInnerParent(find: (() => OtelApi.Context | undefined) | undefined): void {
  state.innerParent = find;
}

/** The API and tracer when tracing is on (lib/telemetry modules that build on them). */
export function tracing(): { api: Api; tracer: OtelApi.Tracer } | undefined {
  return state.api && state.tracer ? { api: state.api, tracer: state.tracer } : undefined;
}

function clean(attributes: SpanAttributes): OtelApi.Attributes {
  const out: OtelApi.Attributes = {};
  for (const [k, v] of Object.entries(attributes)) if (v !== undefined) out[k] = v;
  return out;
}

/** Records an error on a span: its status, and the exception event (message and type only). */
export function spanFailed(span: OtelApi.Span, err: unknown): void {
  const api = state.api;
  if (!api) return;
  const message = err instanceof Error ? err.message : String(err);
  span.recordException(err instanceof Error ? err : message);
  span.setStatus({ code: api.SpanStatusCode.ERROR, message });
}

/**
 * Runs `fn` inside a new span (child of the current one), ended when `fn` settles; a throw marks it
 * failed and is rethrown. With tracing off, `fn(undefined)` and nothing else.
 */
export function inSpan<T>(
  name: string,
  attributes: SpanAttributes,
  fn: (span: OtelApi.Span | undefined) => Promise<T>,
  opts: { kind?: "server" | "client" | "internal"; parent?: OtelApi.Context } = {},
): Promise<T> {
  const { api, tracer } = state;
  if (!api || !tracer) return fn(undefined);
  const parent = opts.parent ?? state.innerParent?.() ?? api.context.active();
  const kind =
    opts.kind === "server" ? api.SpanKind.SERVER : opts.kind === "client" ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL;
  const span = tracer.startSpan(name, { kind, attributes: clean(attributes) }, parent);
  return api.context.with(api.trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (err) {
      spanFailed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** The W3C `traceparent` of a span (the response header, a queued job's data). */
export function traceparentOf(span: OtelApi.Span | undefined): string | undefined {
  if (!span) return undefined;
  const c = span.spanContext();
  return `00-${c.traceId}-${c.spanId}-${(c.traceFlags & 1).toString(16).padStart(2, "0")}`;
}

/** The `traceparent` of the span now running, to carry it across a process hop (the queue). */
export function currentTraceparent(): string | undefined {
  const api = state.api;
  if (!api) return undefined;
  return traceparentOf(api.trace.getSpan(api.context.active()));
}

/**
 * The parent of a request's span: the span already running (under Next.js, its own request span,
 * which read the header), else the caller's `traceparent` header (an unreadable one is ignored: a
 * new trace starts). Undefined with tracing off.
 */
export function requestParent(traceparent: string | null | undefined): OtelApi.Context | undefined {
  const api = state.api;
  if (!api) return undefined;
  const active = api.context.active();
  if (!traceparent || api.trace.getSpan(active)) return active;
  return api.propagation.extract(active, { traceparent });
}

/** Runs `fn` as part of the trace a queued job's `traceparent` names (the worker side of the hop). */
export function underTraceparent<T>(traceparent: string | undefined, fn: () => Promise<T>): Promise<T> {
  const api = state.api;
  if (!api || !traceparent) return fn();
  return api.context.with(api.propagation.extract(api.ROOT_CONTEXT, { traceparent }), fn);
}

/** The trace and span ids of the span now running, for log lines (lib/log.ts); undefined when none. */
export function currentTraceIds(): { traceId: string; spanId: string } | undefined {
  const api = state.api;
  if (!api) return undefined;
  const span = api.trace.getSpan(api.context.active());
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}
