import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { createAppServer } from "../server/request-guard.mjs";

// Real route handlers served over real HTTP on 127.0.0.1, for clients that need a socket (flowise-sdk,
// streaming readers, disconnect tests, raw-request fuzzing) and for the bench's server without Next.
// Requests are routed by Next's app-router rules; the handlers are the route files' own exports.

/** A route file's exported method, as Next calls it. */
export type RouteHandler = (
  req: Request,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response> | Response;

/**
 * One entry of a route table: requests with this method whose path matches `pattern`. Named groups
 * of the pattern become params (decoded); the `catchAll` group is split on "/" into a list.
 */
export type Route = { method: string; pattern: RegExp; handler: RouteHandler; catchAll?: string | null };

type RouteModule = Record<string, unknown>;

/** One route file of app/api: its URL pattern and the methods it exports. */
export type AppRoute = {
  file: string;
  pattern: RegExp;
  catchAll: string | null;
  module: RouteModule;
  methods: string[];
};

const ROOT = path.resolve(import.meta.dirname, "..");
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
 * The route table of route files: one entry per exported method. `replace` swaps a file's module
 * (next-auth needs Next's request context, which a bare server does not have).
 */
export function routesOf(files: AppRoute[], replace: Record<string, RouteModule> = {}): Route[] {
  return files.flatMap((f) => {
    const module = replace[f.file] ?? f.module;
    return METHODS.filter((m) => typeof module[m] === "function").map((method) => ({
      method,
      pattern: f.pattern,
      handler: module[method] as RouteHandler,
      catchAll: f.catchAll,
    }));
  });
}

/**
 * Serves a route table on a free port of 127.0.0.1 by Next's app-router rules: the first pattern
 * that matches the path decides; HEAD is answered from GET, OPTIONS with Allow, another method the
 * route lacks with an empty 405; a path no pattern matches is 404 (header `x-app-server: no-route`).
 * A handler that throws answers 500, as Next would. `productionServer`: server/start.mjs's server
 * (createAppServer: request guard, body guard, API headers) in front, as `npm start` has it;
 * otherwise a plain node:http server.
 */
export async function serveRoutes(routes: Route[], opts: { productionServer?: boolean } = {}) {
  const listener = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    try {
      await sendResponse(res, await dispatch(routes, req, res), req.method === "HEAD");
    } catch (err) {
      console.error("[route-server] handler threw:", err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  };
  const server = opts.productionServer ? createAppServer(listener) : http.createServer(listener);
  // Sockets handed to the `connect` event or refused by the parser leave the HTTP server's own
  // tracking; keep them all so close() never waits on one.
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
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

async function dispatch(routes: Route[], req: http.IncomingMessage, res: http.ServerResponse): Promise<Response> {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const method = req.method ?? "GET";
  const first = routes.find((r) => r.pattern.test(url.pathname));
  // Next answers its HTML 404 page here (e.g. `/api/auth/..` normalises to `/api/`).
  if (!first) return new Response("page not found", { status: 404, headers: { "x-app-server": "no-route" } });
  const same = routes.filter((r) => r.pattern.source === first.pattern.source);
  const found =
    same.find((r) => r.method === method) ?? (method === "HEAD" ? same.find((r) => r.method === "GET") : undefined);
  if (!found && method === "OPTIONS") {
    const methods = same.map((r) => r.method);
    const allow = ["OPTIONS", ...methods, ...(methods.includes("GET") ? ["HEAD"] : [])];
    return new Response(null, { status: 204, headers: { allow: [...new Set(allow)].sort().join(", ") } });
  }
  if (!found) return new Response(null, { status: 405 });
  const params: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(found.pattern.exec(url.pathname)?.groups ?? {})) {
    params[k] = k === found.catchAll ? v.split("/").map(decodeURIComponent) : decodeURIComponent(v);
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
  return found.handler(request, { params: Promise.resolve(params) });
}

/** Writes a fetch Response to a node response, streaming its body (no body for HEAD); stops reading when the client goes. */
async function sendResponse(res: http.ServerResponse, response: Response, head = false) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body || head) return void res.end();
  const reader = response.body.getReader();
  res.on("close", () => reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    res.write(value);
  }
  res.end();
}

/** Reads an SSE body into its `data:` events. */
export function parseSse(text: string): { event: string; data: unknown }[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("data:"))
    .map((l) => JSON.parse(l.slice(5)));
}
