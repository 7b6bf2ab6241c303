/** Request header carrying a page's path and query from proxy.ts to server components (the studio layout). */
export const PAGE_PATH_HEADER = "x-switchyard-page";

/** Where the studio sends a person after signing in when no (safe) page was asked for. */
export const DEFAULT_RETURN_PATH = "/chatflows";

/**
 * The page to return to after signing in, when `raw` is a path on this site: it starts with one
 * "/" (not "//" or "/\", which browsers read as another host), holds no control characters or
 * backslashes, and resolves to the same origin. Anything else (a full URL, `javascript:`, …) is
 * null, so a link like /signin?callbackUrl=https://evil.example cannot send anyone elsewhere.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2000) return null;
  if (!raw.startsWith("/") || raw.startsWith("//")) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  const base = "http://switchyard.invalid";
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  // The sign-in and setup pages are no place to come back to.
  if (/^\/(signin|setup)(\/|$)/.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in page's address that comes back to `path` afterwards. */
export function signInPathFor(path: string | null | undefined): string {
  const back = safeReturnPath(path);
  return back && back !== DEFAULT_RETURN_PATH ? `/signin?callbackUrl=${encodeURIComponent(back)}` : "/signin";
}
