import { AppError } from "@/common/errors";
import { getEnv } from "../env";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** True for methods that may change state (everything but GET, HEAD and OPTIONS). */
export function isUnsafeMethod(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/**
 * Hosts (host[:port]) our own pages are served from: NEXTAUTH_URL's, the one this request was sent
 * to, and behind a trusted proxy (TRUST_PROXY=true) the one the proxy says the browser used.
 */
function ownHosts(req: Request): string[] {
  const env = getEnv();
  const hosts = [req.headers.get("host") ?? new URL(req.url).host];
  if (env.NEXTAUTH_URL) hosts.push(new URL(env.NEXTAUTH_URL).host);
  const forwarded = req.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  if (env.TRUST_PROXY === "true" && forwarded) hosts.push(forwarded);
  return hosts.map((h) => h.toLowerCase());
}

function isOwnOrigin(origin: string, req: Request): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file:) and anything unparsable
  }
  return (url.protocol === "http:" || url.protocol === "https:") && ownHosts(req).includes(url.host.toLowerCase());
}

/**
 * The browser origin a public chatflow's allow-list is checked against: the Origin header, or null
 * when the request comes from our own pages (the full-page chat at /chat/{id}), which are no
 * foreign site and need no entry in the list, the same as a caller with no browser origin.
 */
export function foreignOrigin(req: Request): string | null {
  const origin = req.headers.get("origin");
  return origin !== null && isOwnOrigin(origin, req) ? null : origin;
}

const refuse = (why: string) =>
  new AppError(
    "forbidden",
    `Cross-origin request refused: a studio session can change data only from the studio's own pages (${why}). Other sites and scripts must use an API key.`,
  );

/**
 * CSRF guard for cookie-authenticated requests. A browser attaches the session cookie to requests
 * other sites make (forms, multipart, text/plain need no CORS preflight), so any state-changing
 * request riding on the cookie must prove it came from our own pages: Sec-Fetch-Site (sent by
 * current browsers, not forgeable by pages) must be same-origin, and Origin, when present, must
 * be ours. Browsers send at least one of the two on every cross-origin write; a request with
 * neither comes from a non-browser client, which could as well send any header it likes.
 */
export function assertSameOriginWrite(req: Request): void {
  if (!isUnsafeMethod(req.method)) return;
  const site = req.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") throw refuse(`Sec-Fetch-Site is ${site}`);
  const origin = req.headers.get("origin");
  if (origin !== null && !isOwnOrigin(origin, req)) throw refuse(`Origin ${origin} is not this studio`);
}
