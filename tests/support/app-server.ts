import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { createAppServer } from "../../scripts/request-guard.mjs";
import { sendResponse } from "../../dev/route-server";

type Handler = (
  req: Request,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response> | Response;
type RouteModule = Record<string, unknown>;

/** One route file of app/api: its URL pattern and the methods it exports. */
export type AppRoute = {
  file: string;
  pattern: RegExp;
  catchAll: string | null;
  module: RouteModule;
  methods: string[];
};

const ROOT = path.resolve(import.meta.dirname, "../..");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Every app/api/**\/route.ts, most specific first (static segments before dynamic, catch-all last). */
export async function loadApiRoutes(): Promise<AppRoute[]> {
  const files = (fs.readdirSync(path.join(ROOT, "app/api"), { recursive: true }) as string[])
    .filter((f) => f.endsWith("route.ts"))
    .map((f) => path.join("app/api", f));
  const routes: AppRoute[] = [];
  for (const file of files) {
    const segments = path.dirname(file).split(path.sep).slice(1); // without "app"
    let catchAll: string | null = null;
    const source = segments
      .map((s) => {
        const all = /^\[\.\.\.(\w+)\]$/.exec(s);
        if (all) {
          catchAll = all[1];
          return `(?<${all[1]}>.+)`;
        }
        const one = /^\[(\w+)\]$/.exec(s);
        return one ? `(?<${one[1]}>[^/]+)` : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("/");
    const module = (await import(path.join(ROOT, file))) as RouteModule;
    const methods = METHODS.filter((m) => typeof module[m] === "function");
    routes.push({ file, pattern: new RegExp(`^/${source}$`), catchAll, module, methods });
  }
  const weight = (r: AppRoute) => (r.catchAll ? 1000 : 0) + (r.pattern.source.match(/\(\?</g)?.length ?? 0);
  return routes.sort((a, b) => weight(a) - weight(b));
}

/**
 * Serves every route file of app/api over real HTTP on 127.0.0.1 the way production does:
 * scripts/start.mjs's server (createAppServer) first, then Next's app-router rules (params decoded, HEAD from
 * GET, OPTIONS answered with Allow, other unexported methods an empty 405). A handler that throws
 * answers 500, as Next would. `replace` swaps a route's handlers (next-auth needs Next's request
 * context, which a bare server does not have).
 */
export async function serveApp(routes: AppRoute[], replace: Record<string, RouteModule> = {}) {
  // The production server of scripts/start.mjs, with the route files in place of Next.
  const server = createAppServer(async (req, res) => {
    try {
      const response = await dispatch(routes, replace, req, res);
      await sendResponse(res, response, req.method === "HEAD");
    } catch (err) {
      console.error("[app-server] handler threw:", err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  // Sockets handed to the `connect` event or refused by the parser leave the HTTP server's own
  // tracking; keep them all so close() never waits on one.
  const sockets = new Set<import("node:net").Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

async function dispatch(
  routes: AppRoute[],
  replace: Record<string, RouteModule>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<Response> {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const found = routes.map((r) => ({ r, m: r.pattern.exec(url.pathname) })).find((x) => x.m);
  // Next answers its HTML 404 page here (e.g. `/api/auth/..` normalises to `/api/`).
  if (!found) return new Response("page not found", { status: 404, headers: { "x-app-server": "no-route" } });
  const module = replace[found.r.file] ?? found.r.module;
  const method = req.method ?? "GET";
  let handler = module[method] as Handler | undefined;
  if (!handler && method === "HEAD") handler = module.GET as Handler | undefined;
  if (!handler && method === "OPTIONS") {
    const allow = ["OPTIONS", ...found.r.methods, ...(found.r.methods.includes("GET") ? ["HEAD"] : [])];
    return new Response(null, { status: 204, headers: { allow: [...new Set(allow)].sort().join(", ") } });
  }
  if (!handler) return new Response(null, { status: 405 });
  const params: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(found.m!.groups ?? {})) {
    params[k] = k === found.r.catchAll ? v.split("/").map(decodeURIComponent) : decodeURIComponent(v);
  }
  const abort = new AbortController();
  // The client went away when the response closes unfinished (a request's own "close" only means its body was read).
  res.on("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  const hasBody = method !== "GET" && method !== "HEAD";
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
  const request = new Request(url, {
    method,
    headers,
    signal: abort.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
  return handler(request, { params: Promise.resolve(params) });
}
