import NextAuth from "next-auth";
import { buildAuthOptions } from "@/lib/auth/options";
import { checkAuthRequest } from "@/lib/http/auth-request";
import { errorResponse } from "@/lib/http/responses";
import { refuseOtherMethods } from "@/lib/http/methods";

type Ctx = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth answers 500 for a POST body its own client would never send and plain text for an
 * unknown action: both are checked first and answered in the error shape.
 */
async function handler(req: Request, ctx: Ctx) {
  let checked: Request;
  try {
    checked = await checkAuthRequest(req, (await ctx.params).nextauth?.[0]);
  } catch (err) {
    return errorResponse(err);
  }
  return NextAuth(buildAuthOptions())(checked, ctx);
}

export { handler as GET, handler as POST };

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
