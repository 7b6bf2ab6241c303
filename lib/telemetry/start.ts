/**
 * Start-up of tracing, once per server process (instrumentation.ts for the API, server/worker.ts,
 * bench/serve-routes.ts): with OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT set,
 * OpenTelemetry's Node SDK is loaded and registered, and spans go over OTLP/HTTP (protobuf, or JSON
 * with OTEL_EXPORTER_OTLP_PROTOCOL=http/json) in batches. Without either, nothing is loaded.
 *
 * An endpoint that does not answer costs no request anything: the batch processor exports off the
 * request path, failed batches are dropped, and the log gets one warning a minute at most.
 */
import type { ExportResult } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import { getEnv, type Env } from "../env";
import { errorText, log, setLogTraceIds } from "../log";
import { currentTraceIds, setInnerParent, setTracer } from "./traces";

/** Spans a dropped batch may hold before the warning counts them; one warning per this many ms at most. */
const WARN_EVERY_MS = 60_000;

export interface TracingSettings {
  endpoint: string;
  protocol: "http/protobuf" | "http/json";
  serviceName: string;
}

/** The OTEL_* settings that turn tracing on (lib/env.ts), or undefined when it stays off. */
export function tracingSettings(env: Env = getEnv()): TracingSettings | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return undefined;
  return { endpoint, protocol: env.OTEL_EXPORTER_OTLP_PROTOCOL, serviceName: env.OTEL_SERVICE_NAME };
}

/**
 * An exporter that never lets a failing endpoint be loud: a failed batch is dropped (the batch
 * processor does not retry it), and warned about once a minute at most, with how many batches went
 * since the last warning. OpenTelemetry's own diagnostics stay silent (no diag logger is set).
 */
export function quietExporter(inner: SpanExporter, endpoint: string, now: () => number = Date.now): SpanExporter {
  let lastWarned = Number.NEGATIVE_INFINITY;
  let dropped = 0;
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      inner.export(spans, (result) => {
        if (result.code !== 0) {
          dropped++;
          if (now() - lastWarned >= WARN_EVERY_MS) {
            lastWarned = now();
            log.warn(
              { endpoint, droppedBatches: dropped, err: result.error ? errorText(result.error) : undefined },
              "traces: the OTLP endpoint did not take the spans; dropped (next warning in a minute at most)",
            );
            dropped = 0;
          }
        }
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

interface Started {
  flush(): Promise<void>;
  stop(): Promise<void>;
}

const started: { current?: Started } = {};

/**
 * Starts tracing when the settings ask for it; returns whether it did. Idempotent per process.
 */
export async function startTracing(env: Env = getEnv()): Promise<boolean> {
  if (started.current) return true;
  const settings = tracingSettings(env);
  if (!settings) return false;
  const api = await import("@opentelemetry/api");
  const { NodeTracerProvider, BatchSpanProcessor } = await import("@opentelemetry/sdk-trace-node");
  const { resourceFromAttributes } = await import("@opentelemetry/resources");
  const { OTLPTraceExporter } =
    settings.protocol === "http/json"
      ? await import("@opentelemetry/exporter-trace-otlp-http")
      : await import("@opentelemetry/exporter-trace-otlp-proto");
  // Headers (OTEL_EXPORTER_OTLP_HEADERS) and timeout (OTEL_EXPORTER_OTLP_TIMEOUT) the exporter reads itself.
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || `${settings.endpoint.replace(/\/+$/, "")}/v1/traces`;
  const exporter = quietExporter(new OTLPTraceExporter({ url }) as unknown as SpanExporter, url);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": settings.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // Registers the provider, W3C trace context propagation and the AsyncLocalStorage context manager.
  provider.register();
  const unInstrumentPrisma = await instrumentPrisma(provider);
  setTracer(api, api.trace.getTracer("switchyard"));
  const { innerRunContext } = await import("./langchain");
  setInnerParent(innerRunContext);
  setLogTraceIds(currentTraceIds);
  started.current = {
    // A batch the endpoint did not take is dropped and warned about by quietExporter, not thrown here.
    flush: () => provider.forceFlush().catch(() => {}),
    async stop() {
      unInstrumentPrisma();
      await provider.shutdown().catch(() => {});
      api.trace.disable();
      api.context.disable();
      api.propagation.disable();
      setTracer(undefined, undefined);
      setInnerParent(undefined);
      setLogTraceIds(undefined);
      started.current = undefined;
    },
  };
  log.info(
    { endpoint: settings.endpoint, protocol: settings.protocol, serviceName: settings.serviceName },
    "traces: exporting over OTLP/HTTP",
  );
  return true;
}

/**
 * Prisma 7 makes spans of its own (an operation, and a `db_query` per SQL statement, with driver
 * adapters too) once its instrumentation hands it a tracer. Returns the undo.
 */
async function instrumentPrisma(provider: import("@opentelemetry/sdk-trace-node").NodeTracerProvider) {
  const { PrismaInstrumentation } = await import("@prisma/instrumentation");
  const prisma = new PrismaInstrumentation();
  prisma.setTracerProvider(provider);
  prisma.enable();
  return () => prisma.disable();
}

/**
 * startTracing for a server's start-up: a failure to start (a package missing from the deployment)
 * is one warning, and the server runs untraced rather than not at all.
 */
export async function startTracingOrWarn(): Promise<void> {
  try {
    await startTracing();
  } catch (err) {
    log.warn({ err: errorText(err) }, "traces: could not start OpenTelemetry; running without traces");
  }
}

/** Exports the spans ended so far (tests; shutdown). No-op with tracing off. */
export async function flushTracing(): Promise<void> {
  await started.current?.flush();
}

/** Flushes and stops tracing: the process records nothing after (tests; graceful shutdown). */
export async function stopTracing(): Promise<void> {
  await started.current?.stop();
}
