// @ts-check
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable } from "node:stream";
import { API_RESPONSE_HEADERS } from "../lib/http/base-security-headers.mjs";

// The prediction route served straight from `npm start`'s HTTP server, past Next's router: the same
// handler (the POST export of app/api/v1/prediction/[id]/route.ts, loaded from the build, so it is
// the very module instance Next serves), given a Web Request made from the node request, its
// Response written back. Next's router, its proxy.ts run and its request/response adapters cost
// more CPU per prediction than the rest of the route (figures: docs/upgrading.md). What Next still
// did for this route is done here or by createAppServer before it (the API security headers, set for
// every API path: request-guard.mjs): the client's disconnect aborting the request's signal, and
// waiting for start-up (instrumentation.ts: migrations) before the first request. Everything else
// (other paths, other methods, a path that is not exactly /api/v1/prediction/<uuid> once its
// trailing slash is dropped) still goes to Next. Plain ESM: start.mjs runs under node.
//
// Loading the route borrows Next's internals (the route module's ensureUserland() and userland, and
// instrumentation-globals.external): each step that fails says so in loadFastRoutes' reason, which
// start.mjs prints, instead of Next taking over unnoticed. docs/upgrading.md says what to check when
// Next is upgraded.

const PREDICTION_PATH =
  /^\/api\/v1\/prediction\/([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})$/;

/** The headers of every API answer; createAppServer (request-guard.mjs) sets them before this runs. */
export { API_RESPONSE_HEADERS };

/** The compiled prediction route, inside the build's dist dir. */
const PREDICTION_ROUTE = "server/app/api/v1/prediction/[id]/route.js";
/** Next's own once-per-process run of instrumentation.ts's register(), which Next's router awaits. */
const INSTRUMENTATION_MODULE = "next/dist/server/lib/router-utils/instrumentation-globals.external";

/**
 * @typedef {((req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => boolean) & { readonly served: number }} FastRoutes
 * A request listener that answers the requests it serves and returns true, or returns false for
 * Next to answer; `served` counts the requests it answered.
 */

/**
 * Loads the fast routes from a build in `root` (after `app.prepare()`). Resolves with `fast` and
 * no reason, or, when a step fails (the build lacks the route, Next's internals changed, the route
 * module failed to load), with no `fast` and the reason, for the caller to say so: then Next
 * answers everything. Never rejects.
 * @param {string} root
 * @param {string} [distDir]
 * @returns {Promise<{ fast: FastRoutes, reason: null } | { fast: null, reason: string }>}
 */
export async function loadFastRoutes(root, distDir = ".next") {
  const require = createRequire(path.join(root, "package.json"));
  const routeFile = path.join(root, distDir, PREDICTION_ROUTE);
  /** @param {string} reason */
  const unavailable = (reason) => ({ fast: null, reason });
  if (!fs.existsSync(routeFile)) return unavailable(`the build has no prediction route (${routeFile} is missing)`);
  let routeModule;
  try {
    ({ routeModule } = require(routeFile));
    if (typeof routeModule?.ensureUserland !== "function")
      return unavailable(`${routeFile} has no routeModule.ensureUserland() (Next's route module changed)`);
    await routeModule.ensureUserland(); // the route's module graph loads lazily (top-level await)
  } catch (err) {
    return unavailable(`loading ${routeFile} failed: ${firstLine(err)}`);
  }
  const POST = routeModule.userland?.POST;
  if (typeof POST !== "function")
    return unavailable("routeModule.userland has no POST function after ensureUserland()");
  let ensureInstrumentationRegistered;
  try {
    ({ ensureInstrumentationRegistered } = require(INSTRUMENTATION_MODULE));
  } catch (err) {
    return unavailable(`cannot load ${INSTRUMENTATION_MODULE}: ${firstLine(err)}`);
  }
  if (typeof ensureInstrumentationRegistered !== "function")
    return unavailable(`${INSTRUMENTATION_MODULE} exports no ensureInstrumentationRegistered()`);
  // Next runs instrumentation.ts's register() once per process and keeps the promise: the same one.
  return { fast: createFastRoutes(POST, ensureInstrumentationRegistered(root, distDir)), reason: null };
}

/**
 * The first line of an error's message (a failed require lists its whole require stack below).
 * @param {unknown} err
 */
function firstLine(err) {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

/**
 * The request listener of the fast routes, given the prediction route's POST handler and the
 * promise of start-up (requests wait for it). Returns true when it answers the request; its
 * `served` counts those (start.mjs reports it, so a test can tell the fast path served them).
 * @param {(req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>} POST
 * @param {Promise<unknown>} started
 * @returns {FastRoutes}
 */
export function createFastRoutes(POST, started) {
  let ready = false;
  let served = 0;
  started.then(
    () => (ready = true),
    () => {},
  );
  /** @type {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => boolean} */
  const listener = (req, res) => {
    if (req.method !== "POST") return false;
    const target = req.url ?? "";
    const q = target.indexOf("?");
    const m = PREDICTION_PATH.exec(q < 0 ? target : target.slice(0, q));
    if (!m) return false;
    let url;
    try {
      url = new URL(target, `http://${req.headers.host ?? "127.0.0.1"}`);
    } catch {
      return false; // a Host header that makes no URL: Next answers it as before
    }
    served++;
    void serve(POST, req, res, url, { id: m[1] }, ready ? null : started);
    return true;
  };
  return /** @type {FastRoutes} */ (Object.defineProperty(listener, "served", { get: () => served, enumerable: true }));
}

/**
 * @param {(req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>} handler
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {URL} url
 * @param {Record<string, string>} params
 * @param {Promise<unknown> | null} started
 */
async function serve(handler, req, res, url, params, started) {
  const abort = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  try {
    if (started) await started;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else headers.set(name, value);
    }
    const body = await smallBody(req);
    if (body === FAILED) return void res.destroy();
    // duplex: Node's fetch needs it for a streamed body; DOM's RequestInit type lacks it.
    const init = /** @type {RequestInit} */ ({
      method: "POST",
      headers,
      body: body ?? Readable.toWeb(req),
      duplex: "half",
      signal: abort.signal,
    });
    const request = new Request(url, init);
    const response = await handler(request, { params: Promise.resolve(params) });
    await send(res, response);
  } catch (err) {
    // route() answers every error in the error shape; this is for a failure outside it.
    console.error(`[switchyard] prediction route failed: ${err instanceof Error ? err.message : String(err)}`);
    if (!res.headersSent) {
      res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify({ error: { code: "internal", message: "The request failed on the server." } }));
    } else res.destroy();
  }
}

/** Bodies up to this size (by Content-Length) are read before the handler runs. */
const SMALL_BODY_BYTES = 64 * 1024;
const FAILED = Symbol("body read failed");

/**
 * A request body of a known, small length (a JSON question), read whole: handing the handler a
 * Buffer instead of `Readable.toWeb(req)` spares a web stream over the node stream per request
 * (measured in commit c8ccf5a). Undefined for larger or chunked bodies (they stream to the handler, which caps
 * them); FAILED when the client went away before sending it all.
 * @param {import("node:http").IncomingMessage} req
 * @returns {Promise<Buffer | undefined | typeof FAILED>}
 */
function smallBody(req) {
  const length = Number(req.headers["content-length"]);
  if (!(length >= 0 && length <= SMALL_BODY_BYTES) || req.headers["transfer-encoding"] !== undefined)
    return Promise.resolve(undefined);
  return new Promise((resolve) => {
    /** @type {Buffer[]} */
    const parts = [];
    req.on("data", (part) => parts.push(part));
    req.once("end", () => resolve(parts.length === 1 ? parts[0] : Buffer.concat(parts)));
    req.once("error", () => resolve(FAILED));
    req.once("close", () => {
      if (!req.complete) resolve(FAILED);
    });
  });
}

/**
 * Writes a fetch Response to the node response: status, the route's headers (on top of the API
 * security headers createAppServer set), and the body: a JSON answer in one write, an SSE stream chunk by chunk as it comes (waiting
 * for the socket to drain).
 * @param {import("node:http").ServerResponse} res
 * @param {Response} response
 */
async function send(res, response) {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  if (!response.body) return void res.end();
  // A JSON answer is whole already: one write with its Content-Length, not a chunked body read
  // through the stream's reader.
  if (!String(response.headers.get("content-type")).startsWith("text/event-stream")) {
    const body = Buffer.from(await response.arrayBuffer());
    if (!res.destroyed) res.end(body);
    return;
  }
  const reader = response.body.getReader();
  res.once("close", () => reader.cancel().catch(() => {}));
  // Chunks that arrive in one burst (a model's tokens parsed from one network read) go out in one
  // write: corked until the current run of microtasks is over, instead of a syscall per SSE event.
  let corked = false;
  const uncork = () => {
    corked = false;
    res.uncork();
  };
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done || res.destroyed) break;
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(uncork);
    }
    if (!res.write(value)) await drained(res);
  }
  res.end();
}

/**
 * Resolves when the response can take more (drain) or is gone (close), leaving no listener behind: a
 * long stream waits many times.
 * @param {import("node:http").ServerResponse} res
 */
function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve(undefined);
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
