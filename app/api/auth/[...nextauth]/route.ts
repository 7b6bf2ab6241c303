import NextAuth from "next-auth";
import { buildAuthOptions } from "@/lib/auth/options";
import { checkAuthPost } from "@/lib/http/auth-request";
import { errorResponse } from "@/lib/http/responses";
import { refuseOtherMethods } from "@/lib/http/methods";

type Ctx = { params: Promise<{ nextauth: string[] }> };

const handler = (req: Request, ctx: Ctx) => NextAuth(buildAuthOptions())(req, ctx);

/** POSTs are checked first: next-auth answers 500 for a body its own client would never send. */
async function post(req: Request, ctx: Ctx) {
  let checked: Request;
  try {
    checked = await checkAuthPost(req);
  } catch (err) {
    return errorResponse(err);
  }
  return handler(checked, ctx);
}

export { handler as GET, post as POST };

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
