import type { Span } from "@opentelemetry/api";
import { inSpan, requestParent, traceparentOf, tracingOn, tracing } from "./traces";

/**
 * Runs a request's handling inside its server span (lib/http/route.ts): the caller's `traceparent`
 * is its parent (or Next's own request span, when Next serves it). With tracing off, `run(undefined)`.
 */
export function traceRequest(req: Request, run: (span: Span | undefined) => Promise<Response>): Promise<Response> {
  if (!tracingOn()) return run(undefined);
  return inSpan(
    req.method,
    { "http.request.method": req.method, "url.path": new URL(req.url).pathname.slice(0, 300) },
    run,
    { kind: "server", parent: requestParent(req.headers.get("traceparent")) },
  );
}

/**
 * Names the request's span after its route, the path with each parameter's value replaced by its name
 * (`POST /api/v1/prediction/{id}`): one name per route, whatever the ids.
 */
export function nameRequestSpan(span: Span | undefined, req: Request, params: unknown): void {
  if (!span) return;
  let route = new URL(req.url).pathname;
  if (params && typeof params === "object")
    for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
      if (typeof value === "string" && value) route = route.replace(`/${encodeURIComponent(value)}`, `/{${name}}`);
    }
  span.setAttribute("http.route", route);
  span.updateName(`${req.method} ${route}`);
}

/** Records the answer's status on the request's span; returns the `traceparent` the response carries. */
export function endRequestSpan(span: Span | undefined, status: number, requestId: string): string | undefined {
  if (!span) return undefined;
  span.setAttribute("http.response.status_code", status);
  span.setAttribute("switchyard.request_id", requestId);
  const api = tracing()?.api;
  if (status >= 500 && api) span.setStatus({ code: api.SpanStatusCode.ERROR });
  return traceparentOf(span);
}

/**
 * An outbound call's client span (lib/security/outbound.ts), from its start to the answer's headers:
 * method, host, the URL without its query (it may hold keys), the status. Its parent is the span of
 * the tool or step making the call. With tracing off, `send()`.
 */
export function traceOutbound<T extends { res: { statusCode?: number } }>(
  input: RequestInfo | URL,
  init: RequestInit,
  send: () => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return send();
  const method = (init.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  let url: URL | undefined;
  try {
    url = new URL(input instanceof Request ? input.url : String(input));
  } catch {
    // An unreadable URL: the guard refuses it, inside the span.
  }
  return inSpan(
    method,
    {
      "http.request.method": method,
      "server.address": url?.hostname,
      "server.port": url ? Number(url.port) || (url.protocol === "https:" ? 443 : 80) : undefined,
      "url.full": url ? `${url.origin}${url.pathname}` : undefined,
    },
    async (span) => {
      const answer = await send();
      span?.setAttribute("http.response.status_code", answer.res.statusCode ?? 0);
      return answer;
    },
    { kind: "client" },
  );
}

/**
 * A handler that route() does not wrap (the health ping, the unmatched /api path), traced the same
 * way: its server span, and the answer's `traceparent`. With tracing off, the handler itself runs.
 */
export function tracedHandler(
  handler: (req: Request) => Response | Promise<Response>,
): (req: Request) => Response | Promise<Response> {
  return (req) => {
    if (!tracingOn()) return handler(req);
    return traceRequest(req, async (span) => {
      nameRequestSpan(span, req, undefined);
      let res = await handler(req);
      const traceparent = endRequestSpan(span, res.status, res.headers.get("x-request-id") ?? "");
      if (!traceparent) return res;
      try {
        res.headers.set("traceparent", traceparent);
      } catch {
        // Headers of a Response made by fetch are immutable: copy it.
        res = new Response(res.body, res);
        res.headers.set("traceparent", traceparent);
      }
      return res;
    });
  };
}
