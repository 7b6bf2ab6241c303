/**
 * CORS for the endpoints the embed widget calls from other sites. Headers go only to origins a
 * resolver allows (for predictions: a public chatflow's allowed origins); any other origin gets
 * none, so the browser blocks it — the server-side Origin check (403) stays the real guard.
 * Cookies are never allowed across origins (no Allow-Credentials): widget callers are anonymous.
 */

import { keepRouteOptions } from "./route-options";

type RouteParams = Record<string, string | string[]>;
type NextRouteContext = { params: Promise<RouteParams> };
type Handler = (req: Request, ctx: NextRouteContext) => Promise<Response>;
/**
 * Which browser origins may call, given the route's (unvalidated) path params and the requesting
 * origin (for routes whose chatflow is in the body, e.g. POST /leads: is it allowed by any?).
 */
export type OriginResolver = (params: RouteParams, origin: string) => Promise<readonly string[]>;

const MAX_AGE_SECONDS = "600";
/** The widget reads Retry-After to say how long to wait after a 429; pages may read the limit's state too. */
const EXPOSED = "Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset";

/** CORS response headers for `origin` when it is allowed; only `Vary: Origin` otherwise. */
export function corsHeaders(origin: string | null, allowed: readonly string[]): Record<string, string> {
  if (!origin || !allowed.includes(origin)) return { vary: "Origin" };
  return { vary: "Origin", "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED };
}

/** Headers for a public, credential-free read any page may make (e.g. the widget's config). */
export function anyOriginHeaders(): Record<string, string> {
  return { "access-control-allow-origin": "*", "access-control-expose-headers": EXPOSED };
}

/** Copies a response with extra headers (responses from `fetch`-style constructors may be immutable). */
export function withHeaders(res: Response, headers: Record<string, string>): Response {
  const merged = new Headers(res.headers);
  for (const [k, v] of Object.entries(headers)) {
    if (k === "vary" && merged.has("vary")) merged.set("vary", `${merged.get("vary")}, ${v}`);
    else merged.set(k, v);
  }
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers: merged });
}

async function allowedFor(
  resolve: OriginResolver,
  ctx: NextRouteContext | undefined,
  origin: string,
): Promise<readonly string[]> {
  try {
    return await resolve(ctx ? await ctx.params : {}, origin);
  } catch {
    // A lookup failure must not turn into an open door, nor hide the handler's own answer.
    return [];
  }
}

/** Wraps a handler so every answer (data, error or stream) carries CORS headers for allowed origins. */
export function withCors(handler: Handler, resolve: OriginResolver): Handler {
  const wrapped: Handler = async (req, ctx) => {
    const res = await handler(req, ctx);
    const origin = req.headers.get("origin");
    if (!origin) return withHeaders(res, { vary: "Origin" });
    return withHeaders(res, corsHeaders(origin, await allowedFor(resolve, ctx, origin)));
  };
  return keepRouteOptions(wrapped, handler);
}

/**
 * An OPTIONS handler answering preflights: 204 with CORS headers only for allowed origins.
 * `allowHeaders`: the request headers a page may send (the MCP endpoint's pages send a token).
 */
export function preflight(resolve: OriginResolver, methods: string[], allowHeaders = "content-type"): Handler {
  return async (req, ctx) => {
    const origin = req.headers.get("origin");
    const base = corsHeaders(origin, origin ? await allowedFor(resolve, ctx, origin) : []);
    const headers: Record<string, string> = { ...base, allow: [...methods, "OPTIONS"].join(", ") };
    if (base["access-control-allow-origin"]) {
      headers["access-control-allow-methods"] = [...methods, "OPTIONS"].join(", ");
      headers["access-control-allow-headers"] = allowHeaders;
      headers["access-control-max-age"] = MAX_AGE_SECONDS;
    }
    return new Response(null, { status: 204, headers });
  };
}
