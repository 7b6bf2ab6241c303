import { isAppError } from "../errors";
import { clientIp } from "../http/client-ip";
import { json } from "../http/responses";
import { assertSignInAllowedFrom } from "../http/sign-in-limit";

/**
 * A 429 for next-auth's credentials sign-in when this address used up its failed sign-ins, else
 * null. next-auth itself can only answer 401 with an error text; a real 429 with Retry-After tells
 * scripts to slow down. The body keeps next-auth's `url` so its client's signIn() reports the text.
 */
export function refuseThrottledSignIn(req: Request): Response | null {
  if (req.method !== "POST" || !new URL(req.url).pathname.endsWith("/callback/credentials")) return null;
  try {
    assertSignInAllowedFrom(clientIp(req));
    return null;
  } catch (err) {
    if (!isAppError(err)) throw err;
    const url = new URL(`/api/auth/error?error=${encodeURIComponent(err.message)}`, req.url).toString();
    return json({ url, error: { code: err.code, message: err.message } }, err.status, err.headers);
  }
}
