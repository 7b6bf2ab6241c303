// @ts-check
// The security headers shared by lib/http/security-headers.ts (applied by proxy.ts) and
// server/request-guard.mjs (answers that never reach Next). Plain ESM because server/start.mjs
// runs under node without a TypeScript loader; typed with JSDoc, checked by tsc (// @ts-check).

/** Headers every response carries, whatever its kind. */
export const BASE_SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

/** API answers are data, never documents: nothing may load from them or frame them. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** What pages may use: the test chat records voice questions; nothing uses the camera or location. */
export const PERMISSIONS_POLICY = "camera=(), geolocation=(), microphone=(self)";

/** The headers of the answers the server writes itself (refusals before any route): base and API policy. */
export const API_SECURITY_HEADERS = {
  ...BASE_SECURITY_HEADERS,
  "Content-Security-Policy": API_CONTENT_SECURITY_POLICY,
};

/** The headers of every API answer (what staticSecurityHeaders in lib/http/security-headers.ts gives an API path). */
export const API_RESPONSE_HEADERS = {
  ...BASE_SECURITY_HEADERS,
  "Permissions-Policy": PERMISSIONS_POLICY,
  "Content-Security-Policy": API_CONTENT_SECURITY_POLICY,
};

/**
 * What a path serves: API JSON, a built or public file, or a studio page.
 * @param {string} pathname
 * @returns {"page" | "api" | "static"}
 */
export function responseKind(pathname) {
  if (pathname === "/api" || pathname.startsWith("/api/") || pathname === "/domains") return "api";
  if (
    pathname.startsWith("/_next/static/") ||
    pathname.startsWith("/_next/image") ||
    /\.[a-z0-9]{1,8}$/i.test(pathname)
  )
    return "static";
  return "page";
}
