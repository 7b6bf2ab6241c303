// @ts-check
// JavaScript that runs inside QuickJS before the user's code (lib/sandbox/engine.mjs evaluates it).
// `install` receives the only two host functions user code can reach, each behind a closure: `log`
// (one console line, already a string) and, when the caller gave a capability, `hostFetch` (URL and
// a JSON init, answering a JSON response). The intrinsics it uses are captured here, before user
// code runs, so a user who replaces JSON.stringify or String changes only what their own code sees.
// The object PRELUDE evaluates to stays with the host: user code never sees it.

/** A console line longer than this is cut (the pool caps all lines together too). */
export const LINE_CHARS = 4096;

/** Errors are described in at most this many characters. */
export const MESSAGE_CHARS = 1000;

export const PRELUDE = `({
  // Allocates n bytes and frees them at once (QuickJS refcounts): throws "out of memory" when there is no room.
  room: (n) => {
    new ArrayBuffer(n);
    return true;
  },
  install: function (log, hostFetch) {
  "use strict";
  const stringify = JSON.stringify, parse = JSON.parse, S = String, isError = (e) => e instanceof Error;
  const show = (v) => {
    if (typeof v === "string") return v;
    try { const s = stringify(v); return s === undefined ? S(v) : s; } catch { return S(v); }
  };
  const line = (level) => (...args) => {
    let text = args.map(show).join(" ");
    if (text.length > ${LINE_CHARS}) text = text.slice(0, ${LINE_CHARS}) + "…";
    log(level, text);
  };
  globalThis.console = Object.freeze({
    log: line("log"), info: line("info"), warn: line("warn"), error: line("error"), debug: line("debug"),
  });
  if (hostFetch) {
    const toHeaders = (h) => {
      const out = {};
      if (h && typeof h === "object") for (const [k, v] of Object.entries(h)) out[S(k)] = S(v);
      return out;
    };
    globalThis.fetch = async (url, init = {}) => {
      const body = init.body === undefined || init.body === null ? undefined : S(init.body);
      const request = { method: S(init.method ?? "GET").toUpperCase(), headers: toHeaders(init.headers), body };
      const r = parse(await hostFetch(S(url), stringify(request)));
      const headers = Object.freeze({
        get: (name) => r.headers[S(name).toLowerCase()] ?? null,
        has: (name) => S(name).toLowerCase() in r.headers,
        entries: () => Object.entries(r.headers),
      });
      return Object.freeze({
        ok: r.status >= 200 && r.status < 300, status: r.status, statusText: r.statusText, url: r.url, headers,
        text: async () => r.body,
        json: async () => parse(r.body),
      });
    };
  }
  return {
    // The variables' JSON text, parsed here: no host object is ever handed in.
    parse,
    // undefined (no return) is null; a function or symbol is not JSON (undefined here, refused by the host).
    serialize: (v) => (v === undefined ? "null" : stringify(v)),
    describe: (e) => {
      const cut = (s) => S(s).slice(0, ${MESSAGE_CHARS});
      try {
        if (isError(e)) return stringify({ name: cut(e.name), message: cut(e.message), stack: cut(e.stack ?? "") });
        return stringify({ name: "", message: cut(show(e)), stack: "" });
      } catch {
        return stringify({ name: "", message: "an exception that cannot be read", stack: "" });
      }
    },
  };
  },
})`;
