import { NextResponse, type NextRequest } from "next/server";
import {
  createNonce,
  pageContentSecurityPolicy,
  responseKind,
  staticSecurityHeaders,
} from "@/lib/http/security-headers";
import { PAGE_PATH_HEADER } from "@/common/auth/return-path";

/**
 * Which requests the proxy sees: every path but the API, and API requests without a body. When the
 * proxy runs on a request with a body, Next copies the body for it (cut at its 10 MB default) and
 * waits for the whole body before the route starts: an upload past 10 MB would arrive cut, and a
 * body that never ends would hold the request before the route could refuse it. API requests with a
 * body get the same headers and trailing-slash handling from server/request-guard.mjs instead.
 */
export const config = {
  matcher: [
    "/((?!api/).*)",
    {
      source: "/api/:path*",
      missing: [
        { type: "header", key: "content-length" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
  ],
};

/**
 * Runs before requests (Next 16's proxy, formerly middleware; `config.matcher` says which): adds the
 * security headers, and for pages a Content-Security-Policy with a fresh nonce. Next reads the policy from the request
 * headers and puts the nonce on the scripts it renders, which is why every page renders
 * dynamically (app/layout.tsx).
 */
export function proxy(req: NextRequest): NextResponse {
  const { pathname } = req.nextUrl;
  const slashless = withoutTrailingSlash(pathname);
  if (slashless !== pathname) {
    // A plain URL: NextURL would put the trailing slash it was built with back on.
    const url = new URL(req.url);
    url.pathname = slashless;
    // Flowise's clients call API paths with a trailing slash (flowise-embed posts to /api/v1/leads/):
    // served as they are, since a redirect would cost a CORS round trip and drop nothing but time.
    // Pages keep the redirect Next would have made (next.config.mjs turns Next's own off).
    if (slashless.startsWith("/api/")) return withHeaders(NextResponse.rewrite(url), staticSecurityHeaders(slashless));
    return withHeaders(NextResponse.redirect(url, 308), staticSecurityHeaders(pathname));
  }
  if (responseKind(pathname) !== "page") return withHeaders(NextResponse.next(), staticSecurityHeaders(pathname));
  const csp = pageContentSecurityPolicy(createNonce(), { dev: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("content-security-policy", csp);
  // The page asked for, for the studio layout's redirect to sign-in (which then returns here).
  // Set here on every page request, so a value the client sent is never what the layout reads.
  requestHeaders.set(PAGE_PATH_HEADER, `${pathname}${req.nextUrl.search}`);
  const res = NextResponse.next({ request: { headers: requestHeaders } });
  return withHeaders(res, { ...staticSecurityHeaders(pathname), "Content-Security-Policy": csp });
}

function withHeaders(res: NextResponse, headers: Record<string, string>): NextResponse {
  for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
  return res;
}

/** The path without trailing slashes (`/` stays `/`). */
export function withoutTrailingSlash(pathname: string): string {
  if (pathname.length <= 1 || !pathname.endsWith("/")) return pathname;
  return pathname.replace(/\/+$/, "") || "/";
}
