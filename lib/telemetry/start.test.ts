import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import type { ExportResult } from "@opentelemetry/core";
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import { createLogger, replaceRootLogger } from "../log";
import { quietExporter, tracingSettings } from "./start";
import type { Env } from "../env";

const failing: SpanExporter = {
  export: (_spans, done) => done({ code: 1, error: new Error("connect ECONNREFUSED 127.0.0.1:9") }),
  shutdown: async () => {},
};

let undo: (() => void) | undefined;
afterEach(() => undo?.());

function warnings() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  undo = replaceRootLogger(createLogger({ level: "info", destination }));
  return lines;
}

describe("quietExporter", () => {
  it("warns once a minute at most about a failing endpoint, counting the batches dropped since", () => {
    const lines = warnings();
    let now = 0;
    const exporter = quietExporter(failing, "http://127.0.0.1:9/v1/traces", () => now);
    const results: ExportResult[] = [];
    for (const at of [0, 1_000, 59_999, 60_000, 61_000, 130_000]) {
      now = at;
      exporter.export([], (r) => results.push(r));
    }
    expect(results.every((r) => r.code === 1)).toBe(true);
    expect(lines.map((l) => l.droppedBatches)).toEqual([1, 3, 2]);
    expect(lines[0]).toMatchObject({ level: "warn", endpoint: "http://127.0.0.1:9/v1/traces" });
    expect(String(lines[0].err)).toContain("ECONNREFUSED");
  });

  it("says nothing while the endpoint takes the spans", () => {
    const lines = warnings();
    const ok: SpanExporter = { export: (_s, done) => done({ code: 0 }), shutdown: async () => {} };
    quietExporter(ok, "http://x/v1/traces").export([], () => {});
    expect(lines).toHaveLength(0);
  });
});

describe("tracingSettings", () => {
  const env = (over: Partial<Env>) =>
    ({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf", OTEL_SERVICE_NAME: "switchyard", ...over }) as Env;

  it("is off without an OTLP endpoint", () => {
    expect(tracingSettings(env({}))).toBeUndefined();
  });

  it("takes the traces endpoint over the general one, with the protocol and service name", () => {
    expect(tracingSettings(env({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://a:4318" }))).toEqual({
      endpoint: "http://a:4318",
      protocol: "http/protobuf",
      serviceName: "switchyard",
    });
    expect(
      tracingSettings(
        env({
          OTEL_EXPORTER_OTLP_ENDPOINT: "http://a:4318",
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://b:4318/v1/traces",
          OTEL_SERVICE_NAME: "chat",
        }),
      )?.endpoint,
    ).toBe("http://b:4318/v1/traces");
  });
});
