import { AppError } from "../errors";
import { rateLimiter } from "./rate-limit";

/**
 * Failed sign-ins allowed from one address per window, whatever the e-mail. The per-(address,
 * e-mail) limits stop guessing one account's password; this one stops spraying one password
 * across many accounts. Only failures count, so a busy office behind one address is not locked out
 * by its own successful sign-ins, and a success does not reset it (an attacker's own account must
 * not wipe the count).
 */
export const SIGN_IN_FAILURES_PER_IP = 30;
export const SIGN_IN_WINDOW_MS = 10 * 60_000;

const ipKey = (ip: string) => `signin-ip:${ip}`;

/** Throws 429 with Retry-After when this address has used up its failed sign-ins. */
export function assertSignInAllowedFrom(ip: string): void {
  const retryAfter = rateLimiter.exceeded(ipKey(ip), SIGN_IN_FAILURES_PER_IP);
  if (retryAfter > 0) {
    throw new AppError("rate_limited", `Too many failed sign-ins from your address; try again in ${retryAfter} s.`, {
      headers: { "Retry-After": String(retryAfter) },
    });
  }
}

/** Counts one failed sign-in (wrong e-mail or password) against the address. */
export function recordFailedSignIn(ip: string): void {
  rateLimiter.hit(ipKey(ip), SIGN_IN_FAILURES_PER_IP, SIGN_IN_WINDOW_MS);
}
