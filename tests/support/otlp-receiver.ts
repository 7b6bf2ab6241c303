/**
 * An OTLP/HTTP receiver on 127.0.0.1 (free port) for trace tests: it keeps every span it is sent
 * with the JSON protocol (OTEL_EXPORTER_OTLP_PROTOCOL=http/json), and the path each export used.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Attr = { key: string; value: Record<string, unknown> };
export type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Attr[];
  status?: { code?: number };
};
export type Received = { service: string; span: OtlpSpan };

/** Starts the receiver: `spans` and `paths` fill as exports arrive; `close` stops it. */
export async function createOtlpReceiver() {
  const spans: Received[] = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      paths.push(req.url ?? "");
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      for (const rs of body.resourceSpans ?? []) {
        const service = rs.resource?.attributes?.find((a: Attr) => a.key === "service.name")?.value?.stringValue;
        for (const ss of rs.scopeSpans ?? []) for (const span of ss.spans ?? []) spans.push({ service, span });
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, spans, paths, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** An attribute's value (string, int as OTLP/JSON's string, bool or double), undefined when absent. */
export const attr = (span: OtlpSpan, key: string) => {
  const v = span.attributes?.find((a) => a.key === key)?.value;
  return v ? (v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue) : undefined;
};
