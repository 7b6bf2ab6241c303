import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { bumpSessionVersion } from "../db/queries/users";
import { sessionSecret } from "../security/secrets";
import { clientIp } from "../access/client-ip";
import { signInWithPassword } from "../access/sign-in";

/**
 * Studio sign-in: e-mail + password, JWT sessions carrying the user's session version (so sign-out
 * ends them server-side, see lib/auth/session-token.ts), and the sign-in limits of
 * lib/access/sign-in.ts (10 attempts per minute per IP and e-mail, 30 failures per 10 minutes per
 * IP whatever the e-mail), keyed on the same client address as every other limit.
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
          const email = String(credentials?.email ?? "")
            .trim()
            .toLowerCase();
          const password = String(credentials?.password ?? "");
          const ip = clientIp({ headers: new Headers((req?.headers ?? {}) as Record<string, string>) });
          // A refusal (429) is thrown: next-auth shows its message on the sign-in page.
          const user = await signInWithPassword({ ip, email, password, door: "signin" });
          if (!user) return null;
          return {
            id: user.id,
            email: user.email,
            name: user.name,
            role: user.role,
            sessionVersion: user.sessionVersion,
          };
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
