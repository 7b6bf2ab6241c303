import NextAuth from "next-auth";
import { buildAuthOptions } from "@/lib/auth/options";
import { answerEndedSession, refuseThrottledSignIn } from "@/lib/http/auth-guards";
import { checkAuthRequest } from "@/lib/http/auth-request";
import { errorResponse } from "@/lib/http/responses";
import { refuseOtherMethods } from "@/lib/http/methods";

type Ctx = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth answers 500 for a POST body its own client would never send and plain text for an
 * unknown action: both are checked first and answered in the error shape. Its own POSTs (sign-in,
 * callback, sign-out, session update) already require its double-submit CSRF token, so another
 * origin cannot drive them; `_log` only logs. Throttled sign-ins and sessions ended server-side are
 * answered before next-auth sees them.
 */
async function handler(req: Request, ctx: Ctx) {
  let checked: Request;
  try {
    checked = await checkAuthRequest(req, (await ctx.params).nextauth?.[0]);
  } catch (err) {
    return errorResponse(err);
  }
  return (
    (await refuseThrottledSignIn(checked)) ??
    (await answerEndedSession(checked)) ??
    NextAuth(buildAuthOptions())(checked, ctx)
  );
}

export { handler as GET, handler as POST };

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
