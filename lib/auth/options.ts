import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { findUserByEmail } from "../db/queries/users";
import { dummyPasswordHash, verifyPassword } from "../security/passwords";
import { sessionSecret } from "../security/secrets";
import { rateLimiter } from "../http/rate-limit";

const MAX_FAILED_SIGN_INS = 10;

/** Studio sign-in: e-mail + password, JWT sessions, 10 failed attempts per minute per IP and e-mail. */
export function buildAuthOptions(): NextAuthOptions {
  return {
    secret: sessionSecret(),
    session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
    pages: { signIn: "/signin" },
    providers: [
      CredentialsProvider({
        name: "E-mail",
        credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const email = String(credentials?.email ?? "").trim().toLowerCase();
          const password = String(credentials?.password ?? "");
          const headers = (req?.headers ?? {}) as Record<string, string | undefined>;
          const key = `signin:${headers["x-switchyard-client-ip"] ?? "local"}:${email}`;
          if (rateLimiter.hit(key, MAX_FAILED_SIGN_INS, 60_000) > 0) {
            throw new Error("Too many sign-in attempts. Wait a minute and try again.");
          }
          const user = email ? await findUserByEmail({ email }) : null;
          const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
          if (!user || !ok) return null;
          rateLimiter.reset(key);
          return { id: user.id, email: user.email, name: user.name, role: user.role };
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) token.role = (user as { role?: string }).role;
        return token;
      },
      session({ session, token }) {
        if (session.user) Object.assign(session.user, { id: token.sub, role: token.role });
        return session;
      },
    },
  };
}
