import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { bumpSessionVersion } from "../db/queries/users";
import { userWithPassword } from "./password-check";
import { sessionSecret } from "../security/secrets";
import { rateLimiter } from "../http/rate-limit";
import { clientIp } from "../http/client-ip";
import { assertSignInAllowedFrom, recordFailedSignIn } from "../http/sign-in-limit";

const MAX_FAILED_SIGN_INS = 10;

/**
 * Studio sign-in: e-mail + password, JWT sessions carrying the user's session version (so sign-out
 * ends them server-side, see lib/auth/session-token.ts), 10 failed attempts per minute per IP and
 * e-mail, and 30 failed attempts per 10 minutes per IP whatever the e-mail.
 */
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
          const ip = clientIp({ headers: new Headers((req?.headers ?? {}) as Record<string, string>) });
          assertSignInAllowedFrom(ip);
          const key = `signin:${ip}:${email}`;
          if (rateLimiter.hit(key, MAX_FAILED_SIGN_INS, 60_000) > 0) {
            throw new Error("Too many sign-in attempts. Wait a minute and try again.");
          }
          const user = await userWithPassword(email, password);
          if (!user) {
            recordFailedSignIn(ip);
            return null;
          }
          rateLimiter.reset(key);
          return { id: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion };
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          const signedIn = user as { role?: string; sessionVersion?: number };
          token.role = signedIn.role;
          token.sv = signedIn.sessionVersion ?? 0;
        }
        return token;
      },
      session({ session, token }) {
        if (session.user) Object.assign(session.user, { id: token.sub, role: token.role });
        return session;
      },
    },
    events: {
      // A JWT cannot be taken back: bumping the version makes every token issued before refused.
      async signOut({ token }) {
        if (token?.sub) await bumpSessionVersion({ id: token.sub });
      },
    },
  };
}
