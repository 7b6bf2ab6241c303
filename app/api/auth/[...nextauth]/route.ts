import NextAuth from "next-auth";
import { buildAuthOptions } from "@/lib/auth/options";

const handler = (req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) => NextAuth(buildAuthOptions())(req, ctx);

export { handler as GET, handler as POST };
