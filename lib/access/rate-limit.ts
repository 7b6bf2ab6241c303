import { AppError } from "../errors";
import { getEnv } from "../env";
import { processState } from "../state";

type Window = { count: number; resetAt: number };

/**
 * Fixed-window counters in process memory (the embedded, single-process mode). Queue mode keeps
 * them in Redis instead; the interface stays `hit(key, max, windowMs)`.
 */
export class MemoryRateLimiter {
  private windows = new Map<string, Window>();

  /** Counts one request; returns the seconds to wait when over the limit, else 0. */
  hit(key: string, max: number, windowMs: number, now = Date.now()): number {
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
      if (this.windows.size > 50_000) this.sweep(now);
    }
    w.count += 1;
    return w.count > max ? Math.max(1, Math.ceil((w.resetAt - now) / 1000)) : 0;
  }

  /** Seconds to wait when the key already used up `max` in its window, else 0 (counts nothing). */
  exceeded(key: string, max: number, now = Date.now()): number {
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now || w.count < max) return 0;
    return Math.max(1, Math.ceil((w.resetAt - now) / 1000));
  }

  /** Forgets a key, e.g. after a successful sign-in. */
  reset(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }
}

/** The process's counters (see "rateLimits" in lib/state/catalogue.ts). */
export const rateLimiter = processState("rateLimits", () => new MemoryRateLimiter());

/** Throws 429 with Retry-After when the key is over its limit. */
export function enforceRateLimit(key: string, max: number, windowMs: number, what = "requests"): void {
  const retryAfter = rateLimiter.hit(key, max, windowMs);
  if (retryAfter > 0) {
    throw new AppError("rate_limited", `Too many ${what}; try again in ${retryAfter} s.`, {
      headers: { "Retry-After": String(retryAfter) },
    });
  }
}

/** A chatflow's own limit on anonymous predictions (both null: the server default applies). */
type ChatflowLimit = { rateLimitMax: number | null; rateLimitWindowSec: number | null };

/**
 * The limit on anonymous predictions per client IP: the chatflow's own, else the server's default
 * (PUBLIC_RATE_LIMIT_MAX per PUBLIC_RATE_LIMIT_WINDOW_SEC; a max of 0 turns the default off).
 */
export function publicRateLimit(chatflow: ChatflowLimit): { max: number; windowSec: number } | null {
  if (chatflow.rateLimitMax && chatflow.rateLimitWindowSec)
    return { max: chatflow.rateLimitMax, windowSec: chatflow.rateLimitWindowSec };
  const env = getEnv();
  return env.PUBLIC_RATE_LIMIT_MAX > 0
    ? { max: env.PUBLIC_RATE_LIMIT_MAX, windowSec: env.PUBLIC_RATE_LIMIT_WINDOW_SEC }
    : null;
}

/** Counts one anonymous prediction on a public chatflow from `clientIp`; throws 429 over its limit. */
export function enforcePublicChatflowLimit(chatflow: ChatflowLimit & { id: string }, clientIp: string): void {
  const limit = publicRateLimit(chatflow);
  if (limit) enforceRateLimit(`predict:${chatflow.id}:${clientIp}`, limit.max, limit.windowSec * 1000);
}
