import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import type { AuthPolicy } from "@/common/access/permissions";
import { errorResponseSchema } from "@/common/schemas/responses";
import { OPERATIONS, type Operation } from "./operations";

/** Names of the security schemes of the document. */
export const SECURITY_SCHEMES = {
  apiKey: "apiKey",
  basic: "adminBasic",
  session: "studioSession",
} as const;

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Bad input (names the field): malformed id, query or body",
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
  const statuses = new Set<number>([...(op.errors ?? []), ...Object.keys(op.errorBodies ?? {}).map(Number)]);
  if (op.params || op.query || op.body) statuses.add(400);
  if (op.auth !== "public") {
    // A wrong key or Basic pair is 401 even where anonymous callers are welcome.
    statuses.add(401);
    if (!(op.auth.anonymous && !op.auth.session && !op.auth.apiKey && !op.auth.basicAdmin)) statuses.add(403);
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
  if (op.rateLimited) statuses.add(429);
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

function operationObject(op: Operation): ZodOpenApiOperationObject {
  const responses: ZodOpenApiOperationObject["responses"] = {};
  for (const [status, spec] of Object.entries(op.responses)) {
    const content: Record<
      string,
      { schema: NonNullable<typeof spec.schema> } | { schema: { type: "string"; format?: "binary" } }
    > = {};
    if (spec.schema) content["application/json"] = { schema: spec.schema };
    if (spec.eventStream) content["text/event-stream"] = { schema: { type: "string" } };
    for (const media of spec.binary ?? []) content[media] = { schema: { type: "string", format: "binary" } };
    responses[status as `2${string}`] = {
      description: spec.eventStream ? `${spec.description}. ${spec.eventStream}` : spec.description,
      ...(Object.keys(content).length ? { content } : {}),
      ...(spec.headers ? { headers: headersObject(spec.headers) } : {}),
    };
  }
  for (const status of errorStatuses(op)) {
    const special = op.errorBodies?.[status];
    const headers =
      special?.headers ?? (status === 429 ? { "Retry-After": "Seconds to wait before trying again" } : undefined);
    responses[`${status}` as `4${string}`] = {
      description: special?.description ?? ERROR_DESCRIPTIONS[status] ?? "Error",
      content: { "application/json": { schema: special?.schema ?? errorResponseSchema } },
      ...(headers ? { headers: headersObject(headers) } : {}),
    };
  }
  const requestContent: Record<string, { schema: NonNullable<Operation["body"]> }> = {};
  if (op.body) requestContent["application/json"] = { schema: op.body };
  if (op.multipart) requestContent["multipart/form-data"] = { schema: op.multipart };
  return {
    operationId: operationId(op),
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: securityOf(op.auth),
    ...(op.params || op.query
      ? {
          requestParams: {
            ...(op.params ? { path: op.params as never } : {}),
            ...(op.query ? { query: op.query as never } : {}),
          },
        }
      : {}),
    ...(op.body || op.multipart ? { requestBody: { required: true, content: requestContent } } : {}),
    responses,
  };
}

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

let cached: ReturnType<typeof createDocument> | undefined;

/** The OpenAPI 3.1 document of every operation in OPERATIONS (built once: the list is constant). */
export function openApiDocument(): ReturnType<typeof createDocument> {
  if (cached) return cached;
  const paths: ZodOpenApiPathsObject = {};
  for (const op of OPERATIONS) {
    paths[op.path] = { ...paths[op.path], [op.method]: operationObject(op) };
  }
  cached = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Switchyard API",
      version: "1",
      description:
        "Every error answers `{ error: { code, message, details? } }`. Methods a path does not list answer 405 with `Allow`; query parameters a route does not declare answer 400.",
    },
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name })),
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
  return cached;
}
