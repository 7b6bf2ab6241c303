// @ts-check
import { API_SECURITY_HEADERS } from "../lib/http/base-security-headers.mjs";

// Request bodies on `npm start`'s HTTP server, before any route sees them: how long a client may
// take to send its headers and its body, how many bodies from callers without credentials may be
// arriving at once, and that a connection whose request was answered before its body arrived is
// closed instead of read to its end. Each route still caps its own body (route() refuses a declared
// Content-Length past its cap before authentication and counts bytes while reading). Plain ESM because
// server/start.mjs runs under node without a TypeScript loader; checked by tsc (// @ts-check, JSDoc).

/**
 * @typedef {{ headersTimeoutMs: number, requestTimeoutMs: number, bodyIdleTimeoutMs: number, maxPendingAnonymousBodies: number }} BodyGuardSettings
 */

/** Defaults; lib/env.ts validates the same variables with the same defaults. @type {BodyGuardSettings} */
export const BODY_GUARD_DEFAULTS = {
  /** Node's headersTimeout: time to receive a request's headers. */
  headersTimeoutMs: 20_000,
  /** Node's requestTimeout: time to receive a whole request, headers and body. */
  requestTimeoutMs: 300_000,
  /** A body that sends nothing for this long while the app waits for it is answered 408. */
  bodyIdleTimeoutMs: 15_000,
  /** Requests without credentials whose body is still arriving; past it 503. */
  maxPendingAnonymousBodies: 32,
};

/** Most a request to a path outside /api/ may carry (pages take no bodies of their own). */
export const NON_API_BODY_MAX_BYTES = 1024 * 1024;

/** @type {[string, keyof BodyGuardSettings, number, number][]} */
const SETTINGS = [
  ["HEADERS_TIMEOUT_MS", "headersTimeoutMs", 1_000, 600_000],
  ["REQUEST_TIMEOUT_MS", "requestTimeoutMs", 1_000, 3_600_000],
  ["BODY_IDLE_TIMEOUT_MS", "bodyIdleTimeoutMs", 100, 600_000],
  ["MAX_PENDING_ANONYMOUS_BODIES", "maxPendingAnonymousBodies", 1, 100_000],
];

/**
 * The body guard's settings from the environment. A value that is not a whole number in range throws
 * an Error naming the variable (the server refuses to start), as lib/env.ts does for the app.
 * @param {Record<string, string | undefined>} env
 */
export function bodyGuardSettings(env) {
  const settings = { ...BODY_GUARD_DEFAULTS };
  for (const [name, key, min, max] of SETTINGS) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === "") continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new Error(`${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
    }
    settings[key] = n;
  }
  if (settings.headersTimeoutMs > settings.requestTimeoutMs) {
    throw new Error("HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS");
  }
  return settings;
}

/**
 * The options of http.createServer for these settings: Node answers a request whose headers or whole
 * body take too long 408 (through the server's clientError handler), checking every so often.
 * @param {BodyGuardSettings} settings
 */
export function serverTimeouts(settings) {
  return {
    headersTimeout: settings.headersTimeoutMs,
    requestTimeout: settings.requestTimeoutMs,
    // Node checks both every connectionsCheckingInterval (default 30 s): a fraction of the shorter one.
    connectionsCheckingInterval: Math.max(250, Math.min(30_000, Math.floor(settings.headersTimeoutMs / 4))),
  };
}

/**
 * Whether a request says it carries a body.
 * @param {import("node:http").IncomingMessage} req
 */
export function hasBody(req) {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/**
 * Whether a request presents credentials a route will check (an Authorization header or the studio's session cookie).
 * @param {import("node:http").IncomingMessage} req
 */
export function presentsCredentials(req) {
  if (req.headers.authorization) return true;
  const cookie = req.headers.cookie;
  return cookie !== undefined && /(?:^|;\s*)(?:__Secure-)?next-auth\.session-token(?:\.\d+)?=/.test(cookie);
}

/**
 * A raw HTTP answer in the error shape that closes the connection (the body may still be arriving).
 * @param {number} status
 * @param {string} reason
 * @param {string} code
 * @param {string} message
 * @param {Record<string, string>} [extra]
 */
export function closingAnswer(status, reason, code, message, extra = {}) {
  const body = JSON.stringify({ error: { code, message } });
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    "content-type: application/json; charset=utf-8",
    ...Object.entries({ ...API_SECURITY_HEADERS, ...extra }).map(([k, v]) => `${k.toLowerCase()}: ${v}`),
    `content-length: ${Buffer.byteLength(body)}`,
    "connection: close",
  ];
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}

/**
 * Watches request bodies as they arrive. Returns `admit(req, res)`, to call before a request goes to
 * a route: false when it was answered here (503: too many bodies from callers without credentials are
 * arriving already; 413: a body on a path that takes none). For the requests it admits:
 * - a body that sends nothing for `bodyIdleTimeoutMs` while the app waits for it (no byte buffered
 *   and unread) is answered 408 and its connection closed;
 * - a response that starts before the body has all arrived (a refusal: 401, 413, …) closes the
 *   connection when done, instead of Node reading the rest of the body to keep the connection alive.
 * `pending()` says how many admitted bodies are still arriving (for tests and the log).
 * @param {BodyGuardSettings} settings
 */
export function watchBodies(settings) {
  /** @typedef {{ req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse, anonymous: boolean, bytes: number, since: number }} Arriving */
  /** @type {Set<Arriving>} */
  const arriving = new Set();
  let anonymous = 0;
  /** @type {ReturnType<typeof setInterval> | null} */
  let sweeper = null;
  const sweepEveryMs = Math.max(25, Math.min(1_000, Math.floor(settings.bodyIdleTimeoutMs / 4)));

  /** @param {Arriving} entry */
  const forget = (entry) => {
    if (!arriving.delete(entry)) return;
    if (entry.anonymous) anonymous--;
    if (arriving.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  };

  const sweep = () => {
    const now = Date.now();
    for (const entry of arriving) {
      const { req, res } = entry;
      const socket = req.socket;
      if (req.complete || socket.destroyed || res.writableEnded) {
        forget(entry);
        continue;
      }
      // Progress: bytes came in, or bytes wait unread in the request (then the app is the slow one).
      if (socket.bytesRead !== entry.bytes || req.readableLength > 0) {
        entry.bytes = socket.bytesRead;
        entry.since = now;
        continue;
      }
      if (now - entry.since < settings.bodyIdleTimeoutMs) continue;
      forget(entry);
      if (!res.headersSent && socket.writable) {
        socket.end(
          closingAnswer(
            408,
            "Request Timeout",
            "request_timeout",
            `The request body stopped arriving (nothing for ${settings.bodyIdleTimeoutMs} ms).`,
          ),
        );
        // What the app would still write goes nowhere.
        res.shouldKeepAlive = false;
        setTimeout(() => socket.destroy(), 1_000).unref();
      } else socket.destroy();
    }
  };

  /**
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   * @param {{ api: boolean }} where
   */
  function admit(req, res, where) {
    if (!hasBody(req)) return true;
    if (!where.api && Number(req.headers["content-length"] ?? 0) > NON_API_BODY_MAX_BYTES) {
      refuse(req, res, 413, "payload_too_large", `Body is larger than ${NON_API_BODY_MAX_BYTES} bytes.`);
      return false;
    }
    const isAnonymous = !presentsCredentials(req);
    if (isAnonymous && anonymous >= settings.maxPendingAnonymousBodies) {
      refuse(
        req,
        res,
        503,
        "server_busy",
        "Too many requests without credentials are sending their bodies right now; try again shortly.",
        { "retry-after": "5" },
      );
      return false;
    }
    const entry = { req, res, anonymous: isAnonymous, bytes: req.socket.bytesRead, since: Date.now() };
    arriving.add(entry);
    if (isAnonymous) anonymous++;
    sweeper ??= setInterval(sweep, sweepEveryMs);
    sweeper.unref?.();
    res.once("close", () => forget(entry));
    // An answer that starts before the whole body came closes the connection once sent.
    const writeHead = res.writeHead;
    res.writeHead = /** @type {typeof res.writeHead} */ (
      (/** @type {unknown[]} */ ...args) => {
        if (!req.complete) res.shouldKeepAlive = false;
        return writeHead.apply(res, /** @type {never} */ (args));
      }
    );
    return true;
  }

  return { admit, pending: () => arriving.size };
}

/**
 * @param {import("node:http").IncomingMessage} _req
 * @param {import("node:http").ServerResponse} res
 * @param {number} status
 * @param {string} code
 * @param {string} message
 * @param {Record<string, string>} [headers]
 */
function refuse(_req, res, status, code, message, headers = {}) {
  const body = JSON.stringify({ error: { code, message } });
  res.shouldKeepAlive = false;
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    ...API_SECURITY_HEADERS,
    ...headers,
  });
  res.end(body);
}
