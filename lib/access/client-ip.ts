import { getEnv } from "../env";

/**
 * The caller's IP, the one key of every per-address limit (public chatflows, setup, both sign-in
 * doors). Proxy headers are trusted only when TRUST_PROXY=true.
 */
export function clientIp(req: { headers: Headers }): string {
  if (getEnv().TRUST_PROXY === "true") {
    const forwarded = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
    const real = req.headers.get("x-real-ip");
    if (real) return real.trim();
  }
  // Next.js does not expose the socket address to route handlers; our start script passes it.
  return req.headers.get("x-switchyard-client-ip") ?? "local";
}
