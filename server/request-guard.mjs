// @ts-check
import http from "node:http";
import { API_RESPONSE_HEADERS, API_SECURITY_HEADERS, responseKind } from "../lib/http/base-security-headers.mjs";
import { BODY_GUARD_DEFAULTS, serverTimeouts, watchBodies } from "./body-guard.mjs";

// Method and path sanity for every request, before Next.js sees it. Next answers 400 with an empty
// body for methods it does not know and 500 for TRACE or a path whose percent-escapes do not decode
// (`%ff`): a caller's mistake must get our error shape and a 4xx instead. Plain ESM because
// server/start.mjs runs under node without a TypeScript loader.

/** The methods any route of the app may implement; a route refuses the others it lacks with 405. */
export const KNOWN_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Longest request target (path and query) accepted, in characters. */
export const MAX_TARGET_LENGTH = 8 * 1024;

/**
 * Checks a request's method and target. Returns null when it may go on, else the refusal to send:
 * `{ status, headers, body }` with body in the API's `{ error: { code, message } }` shape.
 * @param {string | undefined} method
 * @param {string | undefined} target the raw request target (`req.url`: path and query)
 */
export function checkRequest(method, target) {
  const m = String(method ?? "");
  if (!KNOWN_METHODS.includes(m)) {
    return refusal(405, "method_not_allowed", `Method ${printable(m)} is not allowed.`, {
      allow: KNOWN_METHODS.join(", "),
    });
  }
  const url = String(target ?? "");
  if (url.length > MAX_TARGET_LENGTH) {
    return refusal(400, "bad_request", `The request path and query are longer than ${MAX_TARGET_LENGTH} characters.`);
  }
  if (!url.startsWith("/")) return refusal(400, "bad_request", "The request path must start with '/'.");
  const queryAt = url.indexOf("?");
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const query = queryAt < 0 ? "" : url.slice(queryAt + 1);
  // No control character in a path; in a query only NUL is refused (a search may hold a newline).
  // eslint-disable-next-line no-control-regex
  const problem = decodeProblem(path, "path", /[\u0000-\u001f\u007f]/) ?? decodeProblem(query, "query", /\u0000/);
  return problem ? refusal(400, "bad_request", problem) : null;
}

/**
 * Why a path or query does not decode to clean UTF-8 text, or null. Query values are decoded by
 * URLSearchParams, which replaces a bad escape silently: refused here so a filter is never
 * something the caller did not send.
 */
/**
 * @param {string} raw
 * @param {string} where
 * @param {RegExp} forbidden
 */
function decodeProblem(raw, where, forbidden) {
  let decoded;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return `The request ${where} has a malformed percent-escape (each % must start a valid UTF-8 escape such as %20).`;
  }
  if (forbidden.test(decoded)) return `The request ${where} contains a control character (such as NUL).`;
  return null;
}

/**
 * @param {number} status
 * @param {string} code
 * @param {string} message
 * @param {Record<string, string>} [headers]
 * @returns {{ status: number, headers: Record<string, string>, body: string }}
 */
function refusal(status, code, message, headers = {}) {
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...API_SECURITY_HEADERS, ...headers },
    body: JSON.stringify({ error: { code, message } }),
  };
}

/**
 * A method name safe to echo: tokens only, and short.
 * @param {string} method
 */
function printable(method) {
  return /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/.test(method) ? method : "(unprintable)";
}

/** @type {Record<number, string>} */
const REASONS = {
  400: "Bad Request",
  405: "Method Not Allowed",
  408: "Request Timeout",
  413: "Payload Too Large",
  431: "Request Header Fields Too Large",
};

/**
 * The raw HTTP answer for a request Node's parser rejected before any handler ran (an unknown or
 * lower-case method, a malformed header, headers too large): node's default is an empty 400, ours
 * is the error shape. For the server's `clientError` event; also used for CONNECT (`connect` event),
 * which node otherwise answers by closing the socket.
 * @param {{ code?: string } | null} err
 */
export function rawRefusal(err) {
  const code = err?.code ?? "";
  const [status, message] =
    code === "HPE_HEADER_OVERFLOW"
      ? [431, "The request headers are too large."]
      : code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "The request took too long to arrive."]
        : code === "CONNECT"
          ? [405, "Method CONNECT is not allowed."]
          : [400, "Malformed HTTP request (check the method, the request line and the headers)."];
  const errorCode = status === 405 ? "method_not_allowed" : "bad_request";
  const body = JSON.stringify({ error: { code: errorCode, message } });
  const allow = status === 405 ? `allow: ${KNOWN_METHODS.join(", ")}\r\n` : "";
  return `HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: application/json; charset=utf-8\r\nx-content-type-options: nosniff\r\n${allow}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/**
 * Wires the raw refusals into an http.Server: parser errors and CONNECT get the error shape.
 * @param {import("node:http").Server} server
 */
export function guardServer(server) {
  server.on("clientError", (err, socket) => {
    if (socket.writable && !socket.destroyed) socket.end(rawRefusal(/** @type {{ code?: string }} */ (err)));
    else socket.destroy();
  });
  server.on("connect", (_req, socket) => socket.end(rawRefusal({ code: "CONNECT" })));
}

/**
 * The HTTP server of `npm start`, around Next's request handler: records the socket's address for
 * rate limits, refuses unknown methods and malformed paths (checkRequest) and parser errors in
 * the error shape, and keeps /API/… (wrong case) out of the pages. API answers get their security
 * headers here, and an API path with a trailing slash is served as the path without it (Flowise's
 * clients post to /api/v1/leads/): proxy.ts does both too, but Next runs it only for requests
 * without a body (a proxy that sees a body makes Next copy it, cut at 10 MB, and wait for all of it).
 * Bodies are watched as they arrive (server/body-guard.mjs: header and body timeouts, the cap on
 * bodies arriving from callers without credentials). `fast` (server/fast-routes.mjs) answers the
 * hot routes it knows past Next, after the same checks; it returns false for the rest.
 * @param {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => unknown} handle
 * @param {((req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => boolean) | null} [fast]
 * @param {{ bodies?: typeof BODY_GUARD_DEFAULTS }} [options]
 */
export function createAppServer(handle, fast = null, options = {}) {
  const settings = options.bodies ?? BODY_GUARD_DEFAULTS;
  const bodies = watchBodies(settings);
  const server = http.createServer(serverTimeouts(settings), (req, res) => {
    // Already answered by a listener that runs first (graceful.mjs: 503 while shutting down).
    if (res.headersSent || res.writableEnded) return;
    // Only this server may say who the client is; a header sent by the client is dropped.
    delete req.headers["x-switchyard-client-ip"];
    req.headers["x-switchyard-client-ip"] = req.socket.remoteAddress ?? "unknown";
    // Unknown methods (TRACE…) and paths that do not decode never reach Next, which answers them 500.
    const refused = checkRequest(req.method, req.url);
    if (refused) {
      res.writeHead(refused.status, refused.headers);
      res.end(refused.body);
      return;
    }
    const url = req.url ?? "/";
    const queryAt = url.indexOf("?");
    let pathname = queryAt < 0 ? url : url.slice(0, queryAt);
    // Paths are case-sensitive: /API/V1/… is not our API, and says so in the API's error shape.
    if (!pathname.startsWith("/api/") && pathname.toLowerCase().startsWith("/api/")) {
      res.writeHead(404, { "content-type": "application/json; charset=utf-8", ...API_SECURITY_HEADERS });
      res.end(
        JSON.stringify({
          error: { code: "not_found", message: `No API route ${req.method} ${pathname} (paths are case-sensitive).` },
        }),
      );
      return;
    }
    const api = responseKind(pathname) === "api";
    if (api) {
      if (pathname.length > 5 && pathname.endsWith("/")) {
        pathname = pathname.replace(/\/+$/, "");
        req.url = queryAt < 0 ? pathname : pathname + url.slice(queryAt);
      }
      for (const [name, value] of Object.entries(API_RESPONSE_HEADERS)) res.setHeader(name, value);
    }
    if (!bodies.admit(req, res, { api })) return;
    if (fast?.(req, res)) return;
    handle(req, res);
  });
  guardServer(server);
  return server;
}
