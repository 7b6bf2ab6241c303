import { AppError } from "@/common/errors";
import { findUserByEmail } from "../db/queries/users";
import { dummyPasswordHash, verifyPassword } from "../security/passwords";
import { enforceRateLimit, rateLimits } from "./rate-limit";

/**
 * Sign-in with an e-mail and a password, for both doors: the studio's next-auth form
 * (lib/auth/options.ts) and HTTP Basic (the HTTP layer's authenticate.ts). Both pass the client address
 * computed by clientIp (lib/access/client-ip.ts, honouring TRUST_PROXY), so one address has one
 * count whichever door it knocks on.
 *
 * Failed sign-ins allowed from one address per window, whatever the e-mail. The per-(address,
 * e-mail) limit stops guessing one account's password; this one stops spraying one password
 * across many accounts. Only failures count, so a busy office behind one address is not locked out
 * by its own successful sign-ins, and a success does not reset it (an attacker's own account must
 * not wipe the count).
 */
export const SIGN_IN_FAILURES_PER_IP = 30;
export const SIGN_IN_WINDOW_MS = 10 * 60_000;
/** Attempts per (address, e-mail) per minute on one door; a success resets it. */
export const SIGN_IN_ATTEMPTS_PER_EMAIL = 10;

const ipKey = (ip: string) => `signin-ip:${ip}`;

/** Throws 429 with Retry-After when this address has used up its failed sign-ins. */
export async function assertSignInAllowedFrom(ip: string): Promise<void> {
  const retryAfter = await rateLimits().exceeded(ipKey(ip), SIGN_IN_FAILURES_PER_IP, SIGN_IN_WINDOW_MS);
  if (retryAfter > 0) {
    throw new AppError("rate_limited", `Too many failed sign-ins from your address; try again in ${retryAfter} s.`, {
      headers: { "Retry-After": String(retryAfter) },
    });
  }
}

/** Counts one failed sign-in (wrong e-mail or password, malformed credentials) against the address. */
export async function recordFailedSignIn(ip: string): Promise<void> {
  await rateLimits().hit(ipKey(ip), SIGN_IN_FAILURES_PER_IP, SIGN_IN_WINDOW_MS);
}

/**
 * The user with this e-mail and password, or null. Always one hash compare (against a dummy hash
 * when no user has the e-mail), so an unknown e-mail answers no faster than a wrong password.
 */
async function userWithPassword(email: string, password: string) {
  const user = email ? await findUserByEmail({ email }) : null;
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  return user && ok ? user : null;
}

export type SignInAttempt = {
  /** The client address, from clientIp. */
  ip: string;
  /** Lower-cased e-mail. */
  email: string;
  password: string;
  /** Which door: each keeps its own per-(address, e-mail) count. */
  door: "signin" | "basic";
  /** Refuses a user with the right password as a failure too (Basic: admins only). */
  accept?: (user: { role: string }) => boolean;
};

/**
 * Checks an e-mail and password under both sign-in limits: 429 (AppError `rate_limited`, with
 * Retry-After) when the address or the (address, e-mail) pair is over its limit, else the user, or
 * null for a failure (counted against the address). A success resets the pair's count only.
 */
export async function signInWithPassword(attempt: SignInAttempt) {
  const { ip, email, password, door } = attempt;
  await assertSignInAllowedFrom(ip);
  const pairKey = `${door}:${ip}:${email}`;
  await enforceRateLimit(pairKey, SIGN_IN_ATTEMPTS_PER_EMAIL, 60_000, "failed sign-in attempts");
  const user = await userWithPassword(email, password);
  if (!user || (attempt.accept && !attempt.accept(user))) {
    await recordFailedSignIn(ip);
    return null;
  }
  await rateLimits().reset(pairKey, SIGN_IN_ATTEMPTS_PER_EMAIL, 60_000);
  return user;
}
