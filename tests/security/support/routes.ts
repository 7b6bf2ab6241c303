import fs from "node:fs";
import path from "node:path";
import { METHOD_REFUSAL } from "../../../lib/http/methods";

/**
 * Every route handler under app/api/v1, found on disk (so a new route is covered without editing
 * the security tests), with the URL it serves and its exported HTTP methods.
 */

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
export type ApiRoute = { file: string; template: string; method: string; handler: Handler };

const API_DIR = path.resolve(import.meta.dirname, "../../../app/api/v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * Routes an anonymous caller may reach at all: the health check, the OpenAPI document, first-run
 * setup, and the public chatflow endpoints (which answer anonymously only for public chatflows).
 */
export const ANONYMOUS_ROUTES = new Set([
  "/api/v1/ping",
  "/api/v1/health",
  "/api/v1/health/ready",
  "/api/v1/openapi.json",
  "/api/v1/setup",
  "/api/v1/prediction/[id]",
  "/api/v1/public-chatbotConfig/[id]",
  "/api/v1/chatflows-streaming/[id]",
  // What flowise-embed calls beside predictions (public chatflows only; files: their chat's only).
  "/api/v1/chatflows-uploads/[id]",
  "/api/v1/feedback",
  "/api/v1/leads",
  "/api/v1/get-upload-file",
  // Reached without a session or API key, each behind a credential of its own, tested where it lives:
  // a flow's MCP token (tests/integration/mcp-server.test.ts), a webhook's HMAC signature when its
  // owner set a secret, and an async webhook run's id as the key to its result (webhooks.test.ts).
  "/api/v1/mcp/[chatflowId]",
  "/api/v1/webhook/[id]",
  "/api/v1/trigger-runs/[id]",
]);

/** Anonymous methods of routes whose other methods are protected (reading feedback is for admins). */
export const ANONYMOUS_METHODS = new Set(["POST /api/v1/feedback/[id]", "PUT /api/v1/feedback/[id]"]);

/** Whether an anonymous caller may reach this route and method at all. */
export const isAnonymousRoute = (r: { method: string; template: string }) =>
  ANONYMOUS_ROUTES.has(r.template) || ANONYMOUS_METHODS.has(`${r.method} ${r.template}`);

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === "route.ts" ? [full] : [];
  });
}

/** All (route, method) pairs, imported from the real modules. */
export async function apiRoutes(): Promise<ApiRoute[]> {
  const routes: ApiRoute[] = [];
  for (const file of routeFiles(API_DIR).sort()) {
    const template = `/api/v1/${path.relative(API_DIR, path.dirname(file)).split(path.sep).join("/")}`;
    const mod = (await import(file)) as Record<string, unknown>;
    for (const method of METHODS) {
      const handler = mod[method];
      // The 405 answers of refuseOtherMethods are not routes (tests/security/malformed-requests covers them).
      if (typeof handler === "function" && !(METHOD_REFUSAL in handler))
        routes.push({ file, template, method, handler: mod[method] as Handler });
    }
  }
  return routes;
}

/** The template with its [params] filled in. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\[(\w+)\]/g, (_, name: string) => params[name] ?? name);
}

/** The [params] names of a template with the values given. */
export function paramsOf(template: string, values: Record<string, string>): Record<string, string> {
  return Object.fromEntries([...template.matchAll(/\[(\w+)\]/g)].map((m) => [m[1], values[m[1]] ?? m[1]]));
}

/** Calls a handler with a Request to `url` (any string, sent as given) and the params. */
export async function callRoute(
  r: ApiRoute,
  url: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const hasBody = r.method !== "GET" && r.method !== "DELETE" && r.method !== "OPTIONS";
  const req = new Request(url, {
    method: r.method,
    headers: { ...(hasBody ? { "content-type": "application/json" } : {}), ...headers },
    body: hasBody ? "{}" : undefined,
  });
  const res = await r.handler(req, { params: Promise.resolve(params) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
