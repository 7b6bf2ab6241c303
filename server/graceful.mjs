// @ts-check
import { API_SECURITY_HEADERS } from "../lib/http/base-security-headers.mjs";

// Graceful shutdown of `npm start` (SIGTERM/SIGINT): the process stops accepting at once, lets the
// requests and SSE streams it is serving finish (up to a grace period), then exits 0. Plain ESM
// because server/start.mjs runs under node without a TypeScript loader; typed with JSDoc, checked by tsc (// @ts-check).

/** Default grace period in ms when SHUTDOWN_GRACE_MS is unset (lib/env.ts has the same default). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 30_000;

const SHUTTING_DOWN_BODY = JSON.stringify({
  error: {
    code: "shutting_down",
    message: "This server is shutting down; retry the request (another server may take it).",
  },
});

/**
 * The grace period from SHUTDOWN_GRACE_MS (ms, 0 … 1 h); the default when unset or not a number.
 * @param {string | undefined} raw
 */
export function graceFromEnv(raw) {
  if (raw === undefined || raw.trim() === "") return DEFAULT_SHUTDOWN_GRACE_MS;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 && n <= 3_600_000 ? n : DEFAULT_SHUTDOWN_GRACE_MS;
}

/**
 * Tracks an http.Server's connections and which of them are serving a request, and returns
 * `shutdown()`: closes the listener (new connections are refused at once), closes idle keep-alive
 * connections, answers a request that still arrives on a kept-alive connection 503 `shutting_down`
 * with `Connection: close`, and resolves once every in-flight request has ended (then the server
 * is closed) or the grace period ran out (remaining connections are destroyed). Call before any
 * request is served; `shutdown()` called again returns the same promise.
 * @param {import("node:http").Server} server
 * @param {{ graceMs?: number }} [options]
 */
export function trackConnections(server, options = {}) {
  const graceMs = options.graceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  /** Requests being served per socket. @type {Map<import("node:net").Socket, number>} */
  const active = new Map();
  let closing = false;
  /** @type {Promise<{ timedOut: boolean }> | null} */
  let done = null;
  let settle = () => {};

  server.on("connection", (socket) => {
    active.set(socket, 0);
    socket.once("close", () => {
      active.delete(socket);
      settle();
    });
  });

  // Runs before the app's request listener (prependListener), so a request on a kept-alive
  // connection during shutdown never reaches the app (createAppServer skips an answered response).
  server.prependListener("request", (req, res) => {
    const socket = req.socket;
    active.set(socket, (active.get(socket) ?? 0) + 1);
    res.once("close", () => {
      const left = (active.get(socket) ?? 1) - 1;
      if (active.has(socket)) active.set(socket, left);
      // A connection that just finished its last request while we close: no next request on it.
      if (closing && left === 0) socket.end();
      settle();
    });
    if (closing) {
      res.shouldKeepAlive = false;
      res.writeHead(503, {
        "content-type": "application/json; charset=utf-8",
        connection: "close",
        "content-length": Buffer.byteLength(SHUTTING_DOWN_BODY),
        "retry-after": "1",
        ...API_SECURITY_HEADERS,
      });
      res.end(SHUTTING_DOWN_BODY);
    }
  });

  function shutdown() {
    if (done) return done;
    closing = true;
    done = new Promise((resolve) => {
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer;
      const finish = (/** @type {boolean} */ timedOut) => {
        settle = () => {};
        clearTimeout(timer);
        if (timedOut) for (const socket of active.keys()) socket.destroy();
        resolve({ timedOut });
      };
      settle = () => {
        if ([...active.values()].every((n) => n === 0)) finish(false);
      };
      timer = setTimeout(() => finish(true), graceMs);
      timer.unref?.();
      server.close();
      // Idle keep-alive connections are ended now; busy ones when their last request is done.
      for (const [socket, n] of active) if (n === 0) socket.end();
      settle();
    });
    return done;
  }

  return { shutdown, inFlight: () => [...active.values()].reduce((a, b) => a + b, 0) };
}

/**
 * Wires SIGTERM and SIGINT to a graceful shutdown of `server`: the first signal starts it and calls
 * `exit(0)` once it is done (or `exit(1)` if the grace period ran out with requests still open);
 * a second signal calls `exit(1)` at once. `exit` defaults to process.exit (tests pass their own).
 * Returns `{ shutdown, inFlight, onSignal }` so a test can send the signal without a real one.
 * @param {import("node:http").Server} server
 * @param {{ graceMs?: number, exit?: (code: number) => void, signals?: NodeJS.Signals[], log?: (line: string) => void }} [options]
 */
export function gracefulShutdown(server, options = {}) {
  const exit = options.exit ?? ((code) => process.exit(code));
  const log = options.log ?? ((line) => console.log(line));
  const graceMs = options.graceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  const tracker = trackConnections(server, { graceMs });
  let signalled = false;
  /** @param {string} signal */
  const onSignal = (signal) => {
    if (signalled) {
      log(`${signal} again: exiting now.`);
      exit(1);
      return;
    }
    signalled = true;
    const open = tracker.inFlight();
    const done = tracker.shutdown(); // the port is closed by now: the line below is true when read
    log(`${signal}: no new connections; finishing ${open} open request(s), at most ${graceMs} ms.`);
    void done.then(({ timedOut }) => {
      if (timedOut) log("Grace period over: closed the requests still open.");
      exit(timedOut ? 1 : 0);
    });
  };
  for (const signal of options.signals ?? ["SIGTERM", "SIGINT"]) process.on(signal, () => onSignal(signal));
  return { ...tracker, onSignal, stopping: () => signalled };
}
