import { z, type ZodType } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import type { AuthPolicy } from "@/common/access/permissions";
import { errorResponseSchema } from "@/common/schemas/responses";
import { API_TAGS } from "../http/route-docs";
import { operationsOf, type Operation, type RouteFile } from "./declared";

/** Names of the security schemes of the document. */
export const SECURITY_SCHEMES = {
  apiKey: "apiKey",
  basic: "adminBasic",
  session: "studioSession",
} as const;

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Bad input (names the field): a malformed id, an undeclared or malformed query parameter, a malformed body; or a malformed request target (npm start's server)",
  401: "Missing or wrong credentials",
  403: "Not allowed (permission, role, scope, cross-origin write)",
  404: "Unknown (or not visible to the caller)",
  408: "The body stopped arriving (BODY_IDLE_TIMEOUT_MS) or was not whole in time (BODY_TIMEOUT_MS; uploads REQUEST_TIMEOUT_MS)",
  409: "Conflict",
  413: "Body too large",
  415: "Wrong media type",
  422: "Not processable (an invalid graph: problems in error.details)",
  429: "Too many requests (Retry-After)",
  500: "Internal error (a bug: never a caller's mistake)",
  502: "An upstream (model, API) failed; the message names it",
  503: "An upstream is unavailable or not configured, or too many bodies without credentials are arriving (server_busy, Retry-After)",
  504: "An upstream timed out",
};

/** The OpenAPI security requirement of a policy: any one of the listed schemes; `{}` = no credentials. */
export function securityOf(auth: Operation["auth"]): Record<string, string[]>[] {
  if (auth === "public") return [{}];
  const p: AuthPolicy = auth;
  const alternatives: Record<string, string[]>[] = [];
  // For non-OAuth schemes OpenAPI 3.1 lists roles in the array: the key permission, "admin".
  if (p.apiKey) alternatives.push({ [SECURITY_SCHEMES.apiKey]: p.adminOnly ? [p.apiKey, "admin"] : [p.apiKey] });
  if (p.session) alternatives.push({ [SECURITY_SCHEMES.session]: p.adminOnly ? ["admin"] : [] });
  if (p.basicAdmin) alternatives.push({ [SECURITY_SCHEMES.basic]: ["admin"] });
  if (p.anonymous) alternatives.push({});
  return alternatives;
}

/** The error statuses an operation can answer, worked out from what it takes and who may call it. */
export function errorStatuses(op: Operation): number[] {
  const { errors = [], errorBodies = {}, rateLimited } = op.docs;
  const statuses = new Set<number>([...errors, ...Object.keys(errorBodies).map(Number)]);
  // Undeclared query parameters are refused on every route, and npm start's server refuses a
  // malformed request target on any path.
  statuses.add(400);
  if (op.auth !== "public") {
    // A wrong key or Basic pair is 401 even where anonymous callers are welcome.
    // Credentials the policy does not take are 403, even on routes for anonymous callers (a signed-in
    // session creating the first admin).
    statuses.add(401);
    statuses.add(403);
    if (op.auth.basicAdmin) statuses.add(429);
  }
  if (op.params) statuses.add(404);
  if (op.body) {
    statuses.add(408);
    statuses.add(413);
    statuses.add(415);
    // npm start's server refuses a body from a caller without credentials while too many arrive at once.
    statuses.add(503);
  }
  if (rateLimited) statuses.add(429);
  // A malformed Idempotency-Key is 400; the same key with another request, or while it runs, 409.
  if (op.idempotent) statuses.add(409);
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

function operationObject(op: Operation): ZodOpenApiOperationObject {
  const { docs } = op;
  const responses: ZodOpenApiOperationObject["responses"] = {};
  for (const [status, spec] of Object.entries(docs.responses)) {
    const content: Record<string, { schema: ZodType } | { schema: { type: "string"; format?: "binary" } }> = {};
    if (spec.schema) content["application/json"] = { schema: spec.schema };
    if (spec.events) content["text/event-stream"] = { schema: spec.events };
    for (const media of spec.binary ?? []) content[media] = { schema: { type: "string", format: "binary" } };
    responses[status as `2${string}`] = {
      description: spec.events ? `${spec.description}. ${EVENT_STREAM}` : spec.description,
      ...(Object.keys(content).length ? { content } : {}),
      ...(spec.headers || op.idempotent
        ? { headers: headersObject({ ...spec.headers, ...(op.idempotent ? REPLAYED_HEADER : {}) }) }
        : {}),
    };
  }
  for (const status of errorStatuses(op)) {
    const special = docs.errorBodies?.[status];
    const headers =
      special?.headers ?? (status === 429 ? { "Retry-After": "Seconds to wait before trying again" } : undefined);
    responses[`${status}` as `4${string}`] = {
      description: special?.description ?? ERROR_DESCRIPTIONS[status] ?? "Error",
      content: { "application/json": { schema: special?.schema ?? errorResponseSchema } },
      ...(headers ? { headers: headersObject(headers) } : {}),
    };
  }
  const requestContent: Record<string, { schema: ZodType }> = {};
  if (op.body) requestContent["application/json"] = { schema: op.body };
  if (docs.form) requestContent["multipart/form-data"] = { schema: docs.form };
  return {
    operationId: operationId(op),
    summary: docs.summary,
    description: docs.description,
    tags: [docs.tag],
    security: securityOf(op.auth),
    ...(op.params || op.query || op.idempotent
      ? {
          requestParams: {
            ...(op.params ? { path: op.params as never } : {}),
            ...(op.query ? { query: op.query as never } : {}),
            ...(op.idempotent ? { header: idempotencyKeyHeader as never } : {}),
          },
        }
      : {}),
    ...(op.body || docs.form ? { requestBody: { required: true, content: requestContent } } : {}),
    responses,
  };
}

/** The optional `Idempotency-Key` header of routes declaring `idempotency` (docs/api.md, Idempotency). */
const idempotencyKeyHeader = z.object({
  "Idempotency-Key": z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x20-\x7e]+$/)
    .optional()
    .meta({
      description:
        "A key of yours (a UUID) that makes a retry safe: the same key and request within 24 hours gets the stored answer (`Idempotent-Replayed: true`) and runs nothing; the same key with another request answers 409 `idempotency_key_reused`, and while the first still runs 409 `idempotency_in_progress`. Keys are per caller; not with `streaming: true`.",
    }),
});

const REPLAYED_HEADER = {
  "Idempotent-Replayed": "`true` when this is the stored answer of an earlier request with the same Idempotency-Key",
};

/** How a streamed answer reads, after its response's description. */
const EVENT_STREAM =
  'With `streaming: true` the answer is Server-Sent Events (`text/event-stream`): each `data:` line holds one event `{"event", "data"}` of the schema shown, `end` last; comment lines (`: heartbeat`) keep a quiet connection open';

function headersObject(headers: Record<string, string>) {
  return Object.fromEntries(
    Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: "string" as const } }]),
  );
}

/** A stable id from method and path: `get /api/v1/chatflows/{id}` → `getChatflowsById`. */
export function operationId(op: Pick<Operation, "method" | "path">): string {
  const words = op.path
    .replace(/^\/api\/v1\//, "/")
    .split(/[^A-Za-z0-9{}]+/)
    .filter(Boolean)
    .map((w) => (w.startsWith("{") ? `by-${w.slice(1, -1)}` : w))
    .flatMap((w) => w.split("-"));
  const tail = words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
  return `${op.method}${op.path.startsWith("/api/v1/") ? "" : "Unversioned"}${tail}`;
}

export type OpenApiDocument = ReturnType<typeof createDocument>;

const cache = new WeakMap<readonly RouteFile[], OpenApiDocument>();

/**
 * The OpenAPI 3.1 document of these route modules, made from each route's own declaration
 * (./declared.ts). Built once per list: route modules do not change while the process runs.
 */
export function openApiDocument(files: readonly RouteFile[]): OpenApiDocument {
  const known = cache.get(files);
  if (known) return known;
  const operations = operationsOf(files);
  const paths: ZodOpenApiPathsObject = {};
  for (const op of operations) {
    paths[op.path] = { ...paths[op.path], [op.method]: operationObject(op) };
  }
  const used = new Set(operations.map((o) => o.docs.tag));
  const document = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Switchyard API",
      version: "1",
      description:
        "Every error answers `{ error: { code, message, details? } }`. Methods a path does not list answer 405 with `Allow`; query parameters a route does not declare answer 400.",
    },
    servers: [{ url: "/", description: "The server that serves this document" }],
    tags: Object.entries(API_TAGS)
      .filter(([name]) => used.has(name as keyof typeof API_TAGS))
      .map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: {
        [SECURITY_SCHEMES.apiKey]: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key (`Authorization: Bearer sy_…`). The listed role is the key permission the operation needs; keys act for their owner and are cut to the owner's current role.",
        },
        [SECURITY_SCHEMES.basic]: {
          type: "http",
          scheme: "basic",
          description: "An admin's e-mail and password (HTTP Basic is for admins only).",
        },
        [SECURITY_SCHEMES.session]: {
          type: "apiKey",
          in: "cookie",
          name: "next-auth.session-token",
          description:
            "The studio's session cookie (`__Secure-next-auth.session-token` over HTTPS). Writes must come from the same origin.",
        },
      },
    },
    paths,
  });
  cache.set(files, document);
  return document;
}
