import type { ZodType } from "zod";
import type { AuthPolicy } from "@/common/access/permissions";
import { METHOD_REFUSAL } from "../http/methods";
import { API_TAGS, type RouteDocs } from "../http/route-docs";
import { routeOptionsOf } from "../http/route-options";

/**
 * The operations of the HTTP API, read from the route modules themselves: each exported method
 * carries its declaration (lib/http/route-options.ts: policy, schemas, docs). The OpenAPI document
 * (./document.ts) and the API table of docs/api.md (./api-table.ts) are made from this list.
 */

/** A route module and the file it comes from (relative to the repository root). */
export type RouteFile = { file: string; module: Record<string, unknown> };

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";
const METHODS: HttpMethod[] = ["get", "post", "put", "patch", "delete"];

export type Operation = {
  method: HttpMethod;
  /** OpenAPI path: `{id}` where the route folder says `[id]`. */
  path: string;
  /** The route file serving it. */
  file: string;
  auth: AuthPolicy | "public";
  params?: ZodType;
  query?: ZodType;
  /** The JSON body's schema. */
  body?: ZodType;
  /** Whether the route also reads a multipart/form-data body (uploads). */
  takesForm: boolean;
  /** Whether the route takes an `Idempotency-Key` header (lib/http/idempotency.ts). */
  idempotent: boolean;
  docs: RouteDocs;
};

/** The URL path of a route file: `app/api/v1/chatflows/[id]/route.ts` → `/api/v1/chatflows/{id}`. */
export function pathOfRouteFile(file: string): string {
  return `/${file.replace(/^app\/?/, "").replace(/\/?route\.ts$/, "")}`.replace(/\[(\w+)\]/g, "{$1}");
}

/**
 * Every operation of these route modules, ordered by tag (as API_TAGS lists them), path and method.
 * HEAD and OPTIONS (preflights) are implied, and 405 refusals are not operations. Throws naming the
 * file and method when a handler carries no declaration: every route documents itself.
 */
export function operationsOf(files: readonly RouteFile[]): Operation[] {
  const operations: Operation[] = [];
  for (const { file, module } of files) {
    for (const method of METHODS) {
      const handler = module[method.toUpperCase()];
      if (typeof handler !== "function" || (handler as unknown as Record<symbol, unknown>)[METHOD_REFUSAL]) continue;
      const declared = routeOptionsOf(handler);
      if (!declared)
        throw new Error(`${method.toUpperCase()} ${file} declares no docs: build it with route() (lib/http/route.ts)`);
      operations.push({
        method,
        path: pathOfRouteFile(file),
        file,
        auth: declared.auth,
        params: declared.params,
        query: declared.query,
        body: declared.body?.json,
        takesForm: Boolean(declared.body?.multipart),
        idempotent: Boolean(declared.idempotency),
        docs: declared.docs,
      });
    }
  }
  const tagOrder = Object.keys(API_TAGS);
  const rank = (o: Operation) => [tagOrder.indexOf(o.docs.tag), o.path, METHODS.indexOf(o.method)] as const;
  return operations.sort((a, b) => {
    const [ta, pa, ma] = rank(a);
    const [tb, pb, mb] = rank(b);
    return ta - tb || (pa < pb ? -1 : pa > pb ? 1 : 0) || ma - mb;
  });
}
