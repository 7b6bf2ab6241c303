import { z, type ZodType } from "zod";
import type { Span } from "@opentelemetry/api";
import { AppError } from "@/common/errors";
import { authenticate } from "./authenticate";
import { errorResponse, json } from "./responses";
import { requestIdOf } from "./request-id";
import { assertSameOriginWrite } from "./same-origin";
import { declaredQueryKeys, readQuery } from "./input-checks";
import { readBody, refuseDeclaredTooLarge, type BodySpec, type ParsedBody } from "./body";
import type { AuthPolicy } from "@/common/access/permissions";
import type { Caller } from "@/common/access/callers";
import { childLogger, type Logger } from "../log";
import { declareRoute, type RouteDeclaration } from "./route-options";
import type { RouteDocs } from "./route-docs";
import { describeIssues } from "@/common/schemas/issue-words";
import { endRequestSpan, nameRequestSpan, traceRequest } from "../telemetry/http";
import {
  answerOnce,
  bufferRequestBody,
  idempotencyKeyOf,
  idempotencyScopeOf,
  type IdempotencySpec,
} from "./idempotency";

type Ctx<P, Q, B> = {
  req: Request;
  params: P;
  query: Q;
  body: B;
  caller: Caller;
  /** This request's id (the `x-request-id` header, echoed on the response): put it in job data. */
  requestId: string;
  /** A logger whose lines carry the request id; services take it as a parameter (they know no HTTP). */
  log: Logger;
};

export type RouteOptions<P, Q, B, F> = {
  auth: AuthPolicy;
  params?: ZodType<P>;
  query?: ZodType<Q>;
  /** The request body: `{ json: schema, maxBytes? }`, and `multipart` for routes taking uploads (lib/http/body.ts). */
  body?: BodySpec<B, F>;
  /**
   * Takes an `Idempotency-Key` header (lib/http/idempotency.ts): a retry with the same key and
   * request gets the stored answer instead of running again. Shown in the OpenAPI document.
   */
  idempotency?: IdempotencySpec<ParsedBody<B, F>>;
  /** The route's documentation (lib/http/route-docs.ts): the OpenAPI document is made from it. */
  docs: RouteDocs;
};

type NextRouteContext = { params: Promise<Record<string, string | string[]>> };

/**
 * Wraps a route handler: validates path params and query with zod (400 naming the field),
 * refuses a declared body past the route's cap (413), authenticates the caller against the policy (401/403; 429 for repeated failed Basic sign-ins),
 * refuses cross-origin writes riding on a session cookie (403), reads the body (JSON checked with
 * zod, or a multipart form: lib/http/body.ts), runs the handler (once per `Idempotency-Key` on
 * routes declaring `idempotency`: lib/http/idempotency.ts) and maps any error to the one error
 * shape. A handler returns data (sent as 200 JSON) or a Response. The handler carries `opts`
 * (lib/http/route-options.ts), from which the OpenAPI document is made.
 */
export function route<P = Record<string, never>, Q = Record<string, never>, B = undefined, F = never>(
  opts: RouteOptions<P, Q, B, F>,
  handler: (ctx: Ctx<P, Q, ParsedBody<B, F>>) => Promise<unknown>,
) {
  // Routes without a query schema accept no query parameters at all.
  const queryKeys = declaredQueryKeys(opts.query);
  const handle = (req: Request, ctx?: NextRouteContext) => traceRequest(req, (span) => handleIn(req, ctx, span));
  const handleIn = async (req: Request, ctx: NextRouteContext | undefined, span?: Span): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    const log = childLogger({ requestId });
    let caller: Caller | undefined;
    const response = await (async () => {
      try {
        // Ids are checked before anything else, including authentication: a malformed id is 400.
        const params = parseWith(opts.params, ctx ? await ctx.params : {}, "path") as P;
        nameRequestSpan(span, req, params);
        const query = parseWith(opts.query, readQuery(new URL(req.url), queryKeys), "query") as Q;
        // A body declared past the route's cap is refused from its header, before authentication.
        if (opts.body) refuseDeclaredTooLarge(req, opts.body);
        const idempotencyKey = opts.idempotency ? idempotencyKeyOf(req) : undefined;
        caller = await authenticate(req, opts.auth);
        // Only the session cookie is sent by browsers on their own: Bearer, Basic and anonymous
        // callers cannot be forged by another site, so the CSRF check is for sessions alone.
        if (caller.kind === "user" && caller.via === "session") assertSameOriginWrite(req);
        const who = caller;
        const run = async (source: Request) => {
          const body = opts.body ? await readBody(source, opts.body, parseBody) : (undefined as ParsedBody<B, F>);
          return {
            body,
            answer: async () => toResponse(await handler({ req, params, query, body, caller: who, requestId, log })),
          };
        };
        if (idempotencyKey === undefined || !opts.idempotency) return await (await run(req)).answer();
        const scope = idempotencyScopeOf(caller);
        const buffered = await bufferRequestBody(req, opts.body);
        const { body, answer } = await run(buffered.request);
        const refusal = opts.idempotency.refuse?.(body);
        if (refusal) throw new AppError("idempotency_key_invalid", refusal);
        return await answerOnce({
          req,
          scope,
          key: idempotencyKey,
          bytes: buffered.bytes,
          log,
          requestId,
          run: answer,
        });
      } catch (err) {
        return errorResponse(err, log, requestId);
      }
    })();
    return finishRequest(req, response, { requestId, log, started, caller, span });
  };
  return declareRoute(handle, opts as RouteDeclaration);
}

/**
 * Echoes the request id and logs the request on one line: method, path (no query string: it may
 * hold ids or search text), status, duration, caller kind. Never headers or bodies.
 */
export function finishRequest(
  req: Request,
  response: Response,
  info: { requestId: string; log: Logger; started: number; caller?: Caller; span?: Span },
): Response {
  let res = response;
  // With tracing on, the answer names its trace (`traceparent`, the request's span).
  const traceparent = endRequestSpan(info.span, res.status, info.requestId);
  try {
    res.headers.set("x-request-id", info.requestId);
  } catch {
    // Headers of a Response made by fetch are immutable: copy it.
    res = new Response(res.body, res);
    res.headers.set("x-request-id", info.requestId);
  }
  if (traceparent) res.headers.set("traceparent", traceparent);
  const status = res.status;
  const line = {
    method: req.method,
    path: new URL(req.url).pathname.slice(0, 300),
    status,
    ms: Math.round((performance.now() - info.started) * 10) / 10,
    caller: info.caller?.kind ?? "none",
  };
  if (status >= 500) info.log.error(line, "request failed");
  else info.log.info(line, "request");
  return res;
}

/**
 * Parses with a schema and turns issues into a 400: the message is sentences a person can act on
 * ("Name is too long (at most 200 characters)."), and `details` names each field for API callers
 * (`[{ field: "body.name", path, code, message }]`, zod's own code and message).
 */
export function parseWith<T>(
  schema: ZodType<T> | undefined,
  input: unknown,
  where: "path" | "query" | "body",
): T | unknown {
  if (!schema) return input;
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const { message, details } = describeIssues(parsed.error.issues, where);
  const code = where === "path" ? "invalid_id" : "validation_failed";
  throw new AppError(code, message, { details });
}

const toResponse = (result: unknown) => (result instanceof Response ? result : json(result));

const parseBody = <T>(schema: ZodType<T>, input: unknown) => parseWith(schema, input, "body") as T;

/** Path param schema for a uuid id. */
export const idParams = z.object({ id: z.uuid({ error: "must be a UUID" }) });

/**
 * A handler without authentication and without input (health checks for load balancers: any
 * headers, any query): gets the request id and logger, answers data as 200 JSON or a Response, and
 * maps errors to the error shape like route(). Declared public, with its `docs`.
 */
export function openRoute(
  opts: { docs: RouteDocs },
  handler: (ctx: { req: Request; requestId: string; log: Logger }) => Promise<unknown>,
) {
  const handle = (req: Request) => traceRequest(req, (span) => handleIn(req, span));
  const handleIn = async (req: Request, span?: Span): Promise<Response> => {
    nameRequestSpan(span, req, undefined);
    const started = performance.now();
    const requestId = requestIdOf(req);
    const log = childLogger({ requestId });
    let response: Response;
    try {
      const result = await handler({ req, requestId, log });
      response = result instanceof Response ? result : json(result);
    } catch (err) {
      response = errorResponse(err, log, requestId);
    }
    return finishRequest(req, response, { requestId, log, started, span });
  };
  return declareRoute(handle, { auth: "public", docs: opts.docs });
}
