// The security headers shared by lib/http/security-headers.ts (applied by proxy.ts) and
// scripts/request-guard.mjs (answers that never reach Next). Plain ESM because scripts/start.mjs
// runs under node without a TypeScript loader; types in base-security-headers.d.mts.

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
