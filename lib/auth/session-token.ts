import { decode, type JWT } from "next-auth/jwt";
import { findSessionUserById } from "../db/queries/users";
import { sessionSecret } from "../security/secrets";

/** next-auth's session cookie names, the __Secure- one (under https) first. JWTs this small are never chunked. */
export const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"] as const;

/**
 * The session cookie of a Cookie header, with its name, or null: the one reader for the API
 * (the HTTP layer's authenticate.ts), next-auth's route (its auth-guards.ts) and studio pages
 * (studio-user.ts). When both names are sent, the __Secure- one wins (a plain one can be planted
 * over http by a neighbouring host; the __Secure- one cannot).
 */
export function readSessionCookie(header: string | null | undefined): { name: string; value: string } | null {
  const found = new Map<string, string>();
  for (const part of header?.split(";") ?? []) {
    const [name, ...rest] = part.trim().split("=");
    if ((SESSION_COOKIES as readonly string[]).includes(name) && !found.has(name)) found.set(name, rest.join("="));
  }
  const name = SESSION_COOKIES.find((n) => found.has(n));
  return name ? { name, value: found.get(name)! } : null;
}

/** The session version a token was issued with; tokens from before the column existed count as 0. */
export function sessionVersionOf(token: JWT): number {
  return typeof token.sv === "number" ? token.sv : 0;
}

/**
 * The user a next-auth session token belongs to, or null when the token is forged or expired, the
 * user is gone, or the session was ended server-side (sign-out, password change bumped the user's
 * sessionVersion). JWT sessions are otherwise valid until they expire, whatever the browser did.
 */
export async function userFromSessionToken(raw: string) {
  const token = await decode({ token: raw, secret: sessionSecret() }).catch(() => null);
  if (!token?.sub) return null;
  const row = await findSessionUserById({ id: token.sub });
  if (!row || row.sessionVersion !== sessionVersionOf(token)) return null;
  const { sessionVersion: _ended, ...user } = row;
  return user;
}
