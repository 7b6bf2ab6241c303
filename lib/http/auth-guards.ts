import { isAppError } from "@/common/errors";
import { clientIp } from "../access/client-ip";
import { assertSignInAllowedFrom } from "../access/sign-in";
import { readSessionCookie, userFromSessionToken } from "../auth/session-token";
import { json } from "./responses";

/**
 * A 429 for next-auth's credentials sign-in when this address used up its failed sign-ins, else
 * null. next-auth itself can only answer 401 with an error text; a real 429 with Retry-After tells
 * scripts to slow down. The body keeps next-auth's `url` so its client's signIn() reports the text.
 */
export async function refuseThrottledSignIn(req: Request): Promise<Response | null> {
  if (req.method !== "POST" || !new URL(req.url).pathname.endsWith("/callback/credentials")) return null;
  try {
    await assertSignInAllowedFrom(clientIp(req));
    return null;
  } catch (err) {
    if (!isAppError(err)) throw err;
    const url = new URL(`/api/auth/error?error=${encodeURIComponent(err.message)}`, req.url).toString();
    return json({ url, error: { code: err.code, message: err.message } }, err.status, err.headers);
  }
}

/**
 * next-auth answers GET /api/auth/session from the JWT alone. A session ended on the server
 * (sign-out, password change) must not look signed in to the studio's client either: it answers
 * as signed out and clears the cookie. Valid sessions, and requests without one, go to next-auth.
 */
export async function answerEndedSession(req: Request): Promise<Response | null> {
  if (req.method !== "GET" || !new URL(req.url).pathname.endsWith("/api/auth/session")) return null;
  const cookie = readSessionCookie(req.headers.get("cookie"));
  if (!cookie || (await userFromSessionToken(cookie.value))) return null;
  const secure = cookie.name.startsWith("__Secure-") ? "; Secure" : "";
  return json({}, 200, { "set-cookie": `${cookie.name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}` });
}
