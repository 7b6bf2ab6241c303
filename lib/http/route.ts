import { z, type ZodType } from "zod";
import { AppError } from "../errors";
import { authenticate } from "./authenticate";
import { errorResponse, json } from "./responses";
import { assertSameOriginWrite } from "./same-origin";
import { assertJsonDepth, assertNoNul, declaredQueryKeys, readQuery } from "./input-checks";
import type { AuthPolicy, Caller } from "./callers";

type Ctx<P, Q, B> = { req: Request; params: P; query: Q; body: B; caller: Caller };

type RouteOptions<P, Q, B> = {
  auth: AuthPolicy;
  params?: ZodType<P>;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  /** Largest JSON body accepted, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
};

type NextRouteContext = { params: Promise<Record<string, string | string[]>> };

/**
 * Wraps a route handler: validates path params, query and JSON body with zod (400 naming the
 * field), authenticates the caller against the policy (401/403; 429 for repeated failed Basic
 * sign-ins), refuses cross-origin writes riding on a session cookie (403), runs the handler and maps any
 * error to the one error shape. A handler returns data (sent as 200 JSON) or a Response.
 */
export function route<P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  opts: RouteOptions<P, Q, B>,
  handler: (ctx: Ctx<P, Q, B>) => Promise<unknown>,
) {
  // Routes without a query schema accept no query parameters at all.
  const queryKeys = declaredQueryKeys(opts.query);
  return async (req: Request, ctx?: NextRouteContext): Promise<Response> => {
    try {
      // Ids are checked before anything else, including authentication: a malformed id is 400.
      const params = parseWith(opts.params, ctx ? await ctx.params : {}, "path") as P;
      const query = parseWith(opts.query, readQuery(new URL(req.url), queryKeys), "query") as Q;
      const caller = await authenticate(req, opts.auth);
      // Only the session cookie is sent by browsers on their own: Bearer, Basic and anonymous
      // callers cannot be forged by another site, so the CSRF check is for sessions alone.
      if (caller.kind === "user" && caller.via === "session") assertSameOriginWrite(req);
      const body = opts.body ? (parseWith(opts.body, await readJson(req, opts.maxBodyBytes), "body") as B) : (undefined as B);
      const result = await handler({ req, params, query, body, caller });
      return result instanceof Response ? result : json(result);
    } catch (err) {
      return errorResponse(err);
    }
  };
}

/** Parses with a schema and turns issues into a 400 naming each field. */
export function parseWith<T>(schema: ZodType<T> | undefined, input: unknown, where: "path" | "query" | "body"): T | unknown {
  if (!schema) return input;
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((i) => ({ field: [where, ...i.path].join("."), message: i.message }));
  const code = where === "path" ? "invalid_id" : "validation_failed";
  throw new AppError(code, details.map((d) => `${d.field}: ${d.message}`).join("; "), { details });
}

/**
 * Reads a JSON body with a size cap and a clear error for the wrong media type or bad JSON; refuses
 * nesting deeper than MAX_JSON_DEPTH and NUL characters (naming the field) before anything uses it.
 */
export async function readJson(req: Request, maxBytes = 1024 * 1024): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new AppError("unsupported_media_type", "Send the body as application/json.");
  }
  const text = (await readBodyCapped(req, maxBytes)).toString("utf8");
  if (!text.trim()) return {};
  assertJsonDepth(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "Body is not valid JSON.");
  }
  assertNoNul(value, "body");
  return value;
}

/** Reads a request body up to `maxBytes`; 413 `what` is larger beyond that (declared or streamed). */
export async function readBodyCapped(req: Request, maxBytes: number, what = "Body"): Promise<Buffer> {
  const tooLarge = () => new AppError("payload_too_large", `${what} is larger than ${maxBytes} bytes.`);
  if (Number(req.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Path param schema for a uuid id. */
export const idParams = z.object({ id: z.uuid({ error: "must be a UUID" }) });
