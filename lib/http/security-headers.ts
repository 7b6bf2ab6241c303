// Security headers of every response. proxy.ts applies them (it runs before every page, static
// file and error, and API requests without a body; server/request-guard.mjs gives every API answer
// its headers too); this module is plain functions so tests can read the policy directly.
import {
  API_CONTENT_SECURITY_POLICY,
  BASE_SECURITY_HEADERS,
  PERMISSIONS_POLICY,
  responseKind,
} from "./base-security-headers.mjs";

export { API_CONTENT_SECURITY_POLICY };

/** The kinds of response that get different policies. */
export type ResponseKind = ReturnType<typeof responseKind>;

export { responseKind };

/** Files in public/ that other origins load on purpose (the widget script host sites embed). */
const CROSS_ORIGIN_FILES = new Set(["/embed.js"]);

/** A fresh, unguessable nonce for one page response (128 bits, base64). */
export function createNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/**
 * The studio pages' policy. Scripts run only with this response's nonce (Next puts it on its own
 * scripts when it finds the policy on the request) or when loaded by such a script
 * ('strict-dynamic': the widget preview loads /embed.js). Styles allow 'unsafe-inline' because
 * React renders style attributes, which nonces cannot cover; CSS cannot run script. No site may
 * frame the studio (clickjacking): there is no full-page public chatbot page to allow framing for.
 */
export function pageContentSecurityPolicy(nonce: string, opts: { dev?: boolean } = {}): string {
  return [
    "default-src 'self'",
    // Next's dev server evaluates modules for fast refresh; production never needs eval.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    // Chatbot avatars may be https images (the widget preview in the studio, the full-page chat at /chat/{id}).
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Headers every response carries, whatever its kind. The page CSP with its nonce is added by the
 * proxy on top (it differs per request).
 */
export function staticSecurityHeaders(pathname: string): Record<string, string> {
  const kind = responseKind(pathname);
  return {
    ...BASE_SECURITY_HEADERS,
    "Permissions-Policy": PERMISSIONS_POLICY,
    ...(kind === "api" ? { "Content-Security-Policy": API_CONTENT_SECURITY_POLICY } : {}),
    ...(CROSS_ORIGIN_FILES.has(pathname) ? { "Cross-Origin-Resource-Policy": "cross-origin" } : {}),
  };
}
