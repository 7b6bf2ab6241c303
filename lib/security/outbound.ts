/**
 * The outbound HTTP guard, used for every request the server makes on a flow's behalf (model
 * providers, OpenAPI chain, spec fetch, speech-to-text, loaders): only http/https, private and
 * internal addresses refused unless the operator allowed the host (OUTBOUND_ALLOW_HOSTS), DNS
 * resolved once and the connection pinned to the checked address (no rebinding between check and
 * connect), redirects followed by hand and re-checked hop by hop, response size and time capped.
 */
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { AppError } from "@/common/errors";
import { linkedDeadline } from "./deadline";
import { traceOutbound } from "../telemetry/http";
import { noteRequest, shownUrl, tracingRequests } from "./request-trace";
import { cappedChunks, leaveBody, readCappedBody, readCappedBytes, streamCappedBody } from "./outbound-body";

export interface GuardedFetchOptions {
  /** Hosts ("host" or "host:port") the operator allowed to be private (OUTBOUND_ALLOW_HOSTS, own base URLs). */
  allowPrivateHosts?: string[];
  /** Allow every private address (local development only). */
  allowPrivate?: boolean;
  /** When set, only these hosts ("host" or "host:port") may be contacted at all, on every hop. */
  allowedHosts?: string[];
  /** Deadline of the whole exchange, redirects and body included. Default 15 000 ms. */
  timeoutMs?: number;
  /** Largest (decoded) response body. Default 2 MiB. */
  maxResponseBytes?: number;
  /** Default 3. */
  maxRedirects?: number;
  /** Upper-case methods allowed, e.g. the ones a spec declares. Default: any. */
  allowedMethods?: string[];
  /**
   * Hand the body over as it arrives (model token streams) instead of reading it first; the size cap
   * and the deadline still apply while it streams.
   */
  streamResponse?: boolean;
  /** Who sends the request, e.g. `Chat model "GPT" (node chat_0)`: starts every error message. */
  requester?: string;
  /** Not listed among a tool call's requests (request-trace.ts): model calls, which the usage tells. */
  untraced?: boolean;
  /** DNS resolution, replaceable in tests. Default: dns.lookup with all addresses. */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

export type GuardedFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

// IPv4 ranges that are not the public internet (RFC 6890 and friends).
const PRIVATE_V4: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
const PRIVATE_V6: [string, number][] = [
  ["::", 128],
  ["::1", 128],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
];
const blockList = new net.BlockList();
for (const [a, p] of PRIVATE_V4) blockList.addSubnet(a, p, "ipv4");
for (const [a, p] of PRIVATE_V6) blockList.addSubnet(a, p, "ipv6");

/** The eight 16-bit groups of an IPv6 address (dotted IPv4 tails and `::` expanded). */
function ipv6Groups(ip: string): number[] {
  let text = ip.split("%")[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split(".").map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const parse = (s: string | undefined) => (s ? s.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const h = parse(head);
  const t = parse(tail);
  return tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
}

function v4FromGroups(hi: number, lo: number): string {
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join(".");
}

/**
 * True for loopback, private, link-local (incl. cloud metadata 169.254.169.254), unique-local,
 * CGNAT, multicast, reserved and documentation addresses, also when an IPv4 address hides inside
 * IPv6 (mapped, compatible, NAT64, 6to4). Anything that is not an IP address counts as private.
 */
export function isPrivateAddress(ip: string): boolean {
  const family = net.isIP(ip.split("%")[0]);
  if (family === 4) return blockList.check(ip, "ipv4");
  if (family !== 6) return true;
  const g = ipv6Groups(ip);
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && (g[5] === 0xffff || g[5] === 0)) return isPrivateAddress(v4FromGroups(g[6], g[7])); // mapped / compatible
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return isPrivateAddress(v4FromGroups(g[6], g[7])); // NAT64
  if (g[0] === 0x2002) return isPrivateAddress(v4FromGroups(g[1], g[2])); // 6to4
  return blockList.check(ip.split("%")[0], "ipv6");
}

export function effectivePort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
}

/** True when `list` names this URL's host, either bare ("any port") or as host:port. */
export function hostListed(list: string[] | undefined, url: URL): boolean {
  if (!list?.length) return false;
  const host = bareHostname(url);
  const port = effectivePort(url);
  return list.some((entry) => {
    const e = entry
      .trim()
      .toLowerCase()
      .replace(/^\[([^\]]+)\](:\d+)?$/, "$1$2");
    return e === host || e === `${host}:${port}` || e === `[${host}]:${port}`;
  });
}

async function defaultResolve(hostname: string): Promise<{ address: string; family: number }[]> {
  return dns.promises.lookup(hostname, { all: true, verbatim: true });
}

/** Check one hop (scheme, method, host lists, resolved addresses); returns the address to connect to. */
async function checkHop(
  url: URL,
  method: string,
  opts: GuardedFetchOptions,
): Promise<{ address: string; family: number }> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AppError(
      "forbidden",
      `Outbound request refused: only http and https URLs are allowed, not "${url.protocol}"`,
    );
  }
  const host = bareHostname(url);
  if (opts.allowedMethods && !opts.allowedMethods.map((m) => m.toUpperCase()).includes(method)) {
    throw new AppError("forbidden", `Outbound request refused: method ${method} is not allowed for ${host}`);
  }
  if (opts.allowedHosts && !hostListed(opts.allowedHosts, url)) {
    throw new AppError("forbidden", `Outbound request refused: host "${url.host}" is not one of the allowed hosts`);
  }
  let addresses: { address: string; family: number }[];
  try {
    addresses = net.isIP(host)
      ? [{ address: host, family: net.isIP(host) }]
      : await (opts.resolve ?? defaultResolve)(host);
  } catch (err) {
    throw new AppError("upstream_error", `Outbound request failed: could not resolve host "${host}"`, { cause: err });
  }
  if (addresses.length === 0)
    throw new AppError("upstream_error", `Outbound request failed: host "${host}" has no address`);
  const privateOk = opts.allowPrivate === true || hostListed(opts.allowPrivateHosts, url);
  const blocked = addresses.find((a) => isPrivateAddress(a.address));
  if (blocked && !privateOk) {
    throw new AppError(
      "forbidden",
      `Outbound request refused: host "${host}" resolves to a private or internal address (${blocked.address}); the server's operator can allow it by adding "${url.host}" to OUTBOUND_ALLOW_HOSTS`,
    );
  }
  return addresses[0];
}

/**
 * The same check for a connection that is not HTTP (a database a SQL node connects to): the host is
 * resolved once and refused when it is private without the operator's allowance (allowPrivate,
 * allowPrivateHosts as host or host:port), or not one of `allowedHosts`. Returns the address to
 * connect to, so the connection is pinned to what was checked.
 */
export async function checkOutboundHost(
  host: string,
  port: number,
  opts: Pick<GuardedFetchOptions, "allowPrivate" | "allowPrivateHosts" | "allowedHosts" | "resolve">,
): Promise<{ address: string; family: number }> {
  let url: URL;
  try {
    url = new URL(`http://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${port}`);
  } catch {
    throw new AppError("validation_failed", `Outbound connection refused: "${host}:${port}" is not a host and port`);
  }
  return checkHop(url, "GET", opts);
}

interface Hop {
  url: URL;
  method: string;
  headers: Headers;
  body?: Buffer;
}

/** Send one request to the already-checked address; the Host header and TLS name stay the URL's host. */
function sendHop(
  hop: Hop,
  target: { address: string; family: number },
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  const pinnedLookup = ((_h: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options?.all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  }) as unknown as net.LookupFunction;
  const headers = Object.fromEntries(hop.headers);
  if (!hop.headers.has("accept-encoding")) headers["accept-encoding"] = "gzip, deflate, br";
  if (hop.body) headers["content-length"] = String(hop.body.length);
  const hostname = bareHostname(hop.url);
  const options: https.RequestOptions = {
    protocol: hop.url.protocol,
    hostname,
    port: effectivePort(hop.url),
    path: `${hop.url.pathname}${hop.url.search}`,
    method: hop.method,
    headers,
    lookup: pinnedLookup,
    signal,
    ...(net.isIP(hostname) ? {} : { servername: hostname }),
  };
  const transport = hop.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(options, resolve);
    req.on("error", reject);
    req.end(hop.body);
  });
}

async function toBuffer(body: RequestInit["body"]): Promise<{ body?: Buffer; contentType?: string | null }> {
  if (body === undefined || body === null) return {};
  // The bodies model SDKs send (JSON text) without a Response around them: the same bytes and
  // content type a Response would give, without its stream (bench/measured.md, "Outbound bodies").
  if (typeof body === "string") return { body: Buffer.from(body, "utf8"), contentType: "text/plain;charset=UTF-8" };
  const probe = new Response(body);
  return { body: Buffer.from(await probe.arrayBuffer()), contentType: probe.headers.get("content-type") };
}

/** The first hop, from fetch-style arguments (a Request, a URL or a string plus init). */
async function firstHop(input: RequestInfo | URL, init: RequestInit): Promise<Hop> {
  const request = input instanceof Request ? input : undefined;
  let url: URL;
  try {
    url = new URL(request ? request.url : String(input));
  } catch {
    throw new AppError("bad_request", `Outbound request refused: "${String(input)}" is not a valid URL`);
  }
  const method = (init.method ?? request?.method ?? "GET").toUpperCase();
  const headers = new Headers(init.headers ?? request?.headers);
  const raw = init.body ?? (request?.body ? await request.arrayBuffer() : undefined);
  const { body, contentType } = await toBuffer(raw);
  if (contentType && !headers.has("content-type")) headers.set("content-type", contentType);
  return { url, method, headers, body };
}

/** The request that follows a redirect: 303 (and 301/302 after POST) become GET; credentials stay on the origin. */
function nextHop(hop: Hop, status: number, location: string): Hop {
  const url = new URL(location, hop.url);
  const toGet = status === 303 || ((status === 301 || status === 302) && hop.method === "POST");
  const headers = new Headers(hop.headers);
  if (url.origin !== hop.url.origin)
    for (const h of ["authorization", "cookie", "proxy-authorization"]) headers.delete(h);
  if (toGet) for (const h of ["content-type", "content-length"]) headers.delete(h);
  return {
    url,
    method: toGet && hop.method !== "HEAD" ? "GET" : hop.method,
    headers,
    body: toGet ? undefined : hop.body,
  };
}

function abortError(
  signal: AbortSignal | null | undefined,
  expired: boolean,
  url: URL,
  timeoutMs: number,
  err: unknown,
): unknown {
  if (expired && !(err instanceof AppError)) {
    // Worded without "timed out": the model SDKs rewrap errors that say so and drop this one.
    return new AppError(
      "upstream_timeout",
      `Outbound request to ${url.host} got no complete answer within ${timeoutMs} ms`,
      { cause: err },
    );
  }
  if (signal?.aborted && !(err instanceof AppError)) return signal.reason ?? err;
  if (err instanceof AppError) return err;
  const message = err instanceof Error ? err.message : String(err);
  // Nothing listening or no route: the upstream is down (503), not answering wrongly (502).
  const code = (err as { code?: unknown })?.code;
  if (typeof code === "string" && UNREACHABLE_CODES.has(code)) {
    return new AppError(
      "upstream_unavailable",
      `Outbound request to ${url.host} failed: ${url.host} could not be reached (${code})`,
      { cause: err },
    );
  }
  return new AppError("upstream_error", `Outbound request to ${url.host} failed: ${message}`, { cause: err });
}

const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ECONNRESET"]);

/** The error with the requester named first, so a caller sees which node's request failed. */
function fromRequester(requester: string | undefined, err: unknown): unknown {
  if (!requester || !(err instanceof AppError)) return err;
  return new AppError(err.code, `${requester}: ${err.message}`, { cause: err.cause, details: err.details });
}

/** The last hop's answer, unread, with the deadline still running and what its failures become. */
interface Exchange {
  res: http.IncomingMessage;
  url: URL;
  signal: AbortSignal;
  fail: (err: unknown) => unknown;
  release: () => void;
}

/**
 * Sends a request under the policy: each hop checked, redirects followed by hand. Answers the last
 * hop's response unread with its deadline armed (the caller releases it once the body is over);
 * on failure the deadline is released and the error is the guard's (AppError naming the requester).
 */
function exchange(
  opts: GuardedFetchOptions,
  input: RequestInfo | URL,
  init: RequestInit,
  timeoutMs: number,
): Promise<Exchange> {
  // One client span per call while tracing (lib/telemetry/http.ts), redirects included.
  const sent = traceOutbound(input, init, () => exchangeHops(opts, input, init, timeoutMs));
  return opts.untraced || !tracingRequests() ? sent : noted(input, init, sent);
}

/** Notes the request in the tool call's trace (request-trace.ts) once its answer's headers are in, or it failed. */
async function noted(input: RequestInfo | URL, init: RequestInit, sent: Promise<Exchange>): Promise<Exchange> {
  const started = performance.now();
  const method = (init.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  const url = shownUrl(input instanceof Request ? input.url : String(input));
  const ms = () => Math.round(performance.now() - started);
  try {
    const answer = await sent;
    noteRequest({ method, url: shownUrl(answer.url), status: answer.res.statusCode ?? 0, ms: ms() });
    return answer;
  } catch (err) {
    noteRequest({ method, url, ms: ms(), error: err instanceof Error ? err.message.slice(0, 300) : String(err) });
    throw err;
  }
}

async function exchangeHops(
  opts: GuardedFetchOptions,
  input: RequestInfo | URL,
  init: RequestInit,
  timeoutMs: number,
): Promise<Exchange> {
  const maxRedirects = opts.maxRedirects ?? 3;
  let hop = await firstHop(input, init).catch((err) => Promise.reject(fromRequester(opts.requester, err)));
  const deadline = linkedDeadline(init.signal, timeoutMs);
  const { signal } = deadline;
  const fail = (err: unknown) =>
    fromRequester(opts.requester, abortError(init.signal, deadline.expired(), hop.url, timeoutMs, err));
  try {
    for (let redirects = 0; ; redirects += 1) {
      const target = await checkHop(hop.url, hop.method, opts);
      signal.throwIfAborted();
      const res = await sendHop(hop, target, signal);
      const location = res.headers.location;
      if (!REDIRECT_STATUSES.has(res.statusCode ?? 0) || !location || init.redirect === "manual") {
        return { res, url: hop.url, signal, fail, release: deadline.release };
      }
      res.resume();
      if (init.redirect === "error")
        throw new AppError("upstream_error", `Outbound request to ${hop.url.host} was redirected`);
      if (redirects >= maxRedirects) {
        throw new AppError(
          "upstream_error",
          `Outbound request to ${hop.url.host} was redirected more than ${maxRedirects} times`,
        );
      }
      hop = nextHop(hop, res.statusCode ?? 302, location);
    }
  } catch (err) {
    deadline.release();
    throw fail(err);
  }
}

/**
 * A fetch-compatible function that enforces the outbound policy above. Answers a standard Response
 * (body read whole and capped, or streamed when `streamResponse`; content decoded); throws AppError
 * forbidden, bad_request, upstream_error or upstream_timeout.
 */
export function createGuardedFetch(opts: GuardedFetchOptions = {}): GuardedFetch {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const maxBytes = opts.maxResponseBytes ?? 2 * 1024 * 1024;
  return async (input, init = {}) => {
    const { res, url, signal, fail, release } = await exchange(opts, input, init, timeoutMs);
    // A streamed answer keeps the deadline until its body ends (streamCappedBody releases it).
    if (opts.streamResponse) return streamCappedBody(res, url, maxBytes, signal, fail, release);
    try {
      return await readCappedBody(res, url, maxBytes);
    } catch (err) {
      throw fail(err);
    } finally {
      release();
    }
  };
}

/**
 * An answer of `createGuardedRequest`, unread: the status, the headers and the decoded body, read
 * whole (`bytes`) or as it arrives (`chunks`), capped and under the deadline either way; `discard`
 * drops it. The deadline ends with the body (read, failed, or left early).
 */
export interface GuardedAnswer {
  status: number;
  /** The last hop's URL (after redirects). */
  url: URL;
  headers: http.IncomingHttpHeaders;
  bytes(): Promise<Buffer>;
  chunks(): AsyncIterable<Buffer>;
  discard(): void;
}

export type GuardedRequest = (input: string | URL, init?: RequestInit) => Promise<GuardedAnswer>;

/**
 * The guard without the Fetch API's objects around the answer: the same policy, redirects, deadline,
 * size cap and decoding as `createGuardedFetch`, answering node's own response. A Response costs a
 * Headers, a web stream (made transferable on Node 20) and its reader per call; the model client makes
 * several calls per prediction (bench/profile-after.md).
 */
export function createGuardedRequest(opts: GuardedFetchOptions = {}): GuardedRequest {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const maxBytes = opts.maxResponseBytes ?? 2 * 1024 * 1024;
  return async (input, init = {}) => {
    const { res, url, fail, release } = await exchange(opts, input, init, timeoutMs);
    let used = false;
    const use = () => {
      if (used) throw new Error("The answer's body was already read.");
      used = true;
    };
    return {
      status: res.statusCode ?? 502,
      url,
      headers: res.headers,
      async bytes() {
        use();
        try {
          return await readCappedBytes(res, url, maxBytes);
        } catch (err) {
          throw fail(err);
        } finally {
          release();
        }
      },
      async *chunks() {
        use();
        try {
          for await (const chunk of cappedChunks(res, url, maxBytes)) yield chunk;
        } catch (err) {
          throw fail(err);
        } finally {
          // Ended, failed or left early: the caller reads nothing more (leaveBody: a body nearly over
          // is read out, so its connection is used again).
          leaveBody(res);
          release();
        }
      },
      discard() {
        used = true;
        res.destroy();
        release();
      },
    };
  };
}

/**
 * A fetch in the shape of `createGuardedRequest`'s answers: for callers given a plain fetch (unit
 * tests, contexts without the guard's request). Policy and caps are the fetch's own.
 */
export function requestOverFetch(send: typeof fetch): GuardedRequest {
  return async (input, init) => {
    const res = await send(input, init);
    return {
      status: res.status,
      url: new URL(res.url || String(input)),
      headers: Object.fromEntries(res.headers),
      bytes: async () => Buffer.from(await res.arrayBuffer()),
      async *chunks() {
        if (!res.body) return;
        const reader = res.body.getReader();
        try {
          for (let r = await reader.read(); !r.done; r = await reader.read()) {
            yield Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength);
          }
        } finally {
          await reader.cancel().catch(() => undefined);
        }
      },
      discard: () => void res.body?.cancel().catch(() => undefined),
    };
  };
}
