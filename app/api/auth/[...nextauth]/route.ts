import NextAuth from "next-auth";
import { buildAuthOptions } from "@/lib/auth/options";
import { answerEndedSession, refuseThrottledSignIn } from "@/lib/auth/route-guards";

// next-auth's own POSTs (sign-in, callback, sign-out, session update) already require its
// double-submit CSRF token, so another origin cannot drive them; `_log` only logs.
const handler = async (req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) =>
  refuseThrottledSignIn(req) ?? (await answerEndedSession(req)) ?? NextAuth(buildAuthOptions())(req, ctx);

export { handler as GET, handler as POST };
