import { AppError } from "@/common/errors";
import { getEnv } from "../env";
import type { Redis } from "ioredis";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { redisConnections } from "../redis";
import { processState } from "../state";

/**
 * Fixed-window counters through rate-limiter-flexible, one limiter per (max, window): in process
 * memory without REDIS_URL (RateLimiterMemory), in Redis with it (RateLimiterRedis, shared by every
 * process), with a memory limiter as insurance so a Redis outage falls back to per-process limits
 * instead of failing requests. The interface stays `hit(key, max, windowMs)`.
 */
export class RateLimits {
  private limiters = new Map<string, RateLimiterAbstract>();

  /** `redis`: a command connection (lib/redis), or none for memory only. */
  constructor(private redis?: Redis) {}

  /** Counts one request; resolves to the seconds to wait when over the limit, else 0. */
  async hit(key: string, max: number, windowMs: number): Promise<number> {
    return (await this.count(key, max, windowMs)).retryAfter;
  }

  /** Counts one request: where the key stands after it (and the seconds to wait when over the limit, else 0). */
  async count(key: string, max: number, windowMs: number): Promise<RateLimitState & { retryAfter: number }> {
    try {
      const res = await this.limiter(max, windowMs).consume(key);
      return { limit: max, remaining: res.remainingPoints, resetSec: secondsToWait(res), retryAfter: 0 };
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      const wait = secondsToWait(res);
      return { limit: max, remaining: 0, resetSec: wait, retryAfter: wait };
    }
  }

  /** Seconds to wait when the key already used up `max` in its window, else 0 (counts nothing). */
  async exceeded(key: string, max: number, windowMs: number): Promise<number> {
    const res = await this.limiter(max, windowMs).get(key);
    return res && res.consumedPoints >= max ? secondsToWait(res) : 0;
  }

  /** Forgets a key, e.g. after a successful sign-in. */
  async reset(key: string, max: number, windowMs: number): Promise<void> {
    await this.limiter(max, windowMs).delete(key);
  }

  private limiter(max: number, windowMs: number): RateLimiterAbstract {
    const id = `${max}:${windowMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const options = { points: max, duration: windowMs / 1000, keyPrefix: `switchyard:rl:${id}` };
      const memory = new RateLimiterMemory(options);
      limiter = this.redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: this.redis,
            insuranceLimiter: memory,
            rejectIfRedisNotReady: true,
          })
        : memory;
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}

function secondsToWait(res: RateLimiterRes): number {
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

/** The process's counters (see "rateLimits" in lib/state/catalogue.ts): in Redis when REDIS_URL is set. */
export function rateLimits(): RateLimits {
  return processState("rateLimits", () => {
    const url = getEnv().REDIS_URL;
    return new RateLimits(url ? redisConnections(url).command : undefined);
  });
}

/** Where a caller stands against a limit after a request: requests per window, left, seconds until it resets. */
export type RateLimitState = { limit: number; remaining: number; resetSec: number };

/**
 * The `X-RateLimit-*` headers of a limited route's answers (limit, remaining, seconds until the
 * window resets, as the IETF RateLimit draft counts it); browsers may read them (lib/http/cors.ts).
 */
export function rateLimitHeaders(state: RateLimitState | undefined): Record<string, string> {
  if (!state) return {};
  return {
    "X-RateLimit-Limit": String(state.limit),
    "X-RateLimit-Remaining": String(state.remaining),
    "X-RateLimit-Reset": String(state.resetSec),
  };
}

/** Counts one request; throws 429 with Retry-After (and X-RateLimit-*) when the key is over its limit. */
export async function enforceRateLimit(
  key: string,
  max: number,
  windowMs: number,
  what = "requests",
): Promise<RateLimitState> {
  const { retryAfter, ...state } = await rateLimits().count(key, max, windowMs);
  if (retryAfter > 0) {
    throw new AppError("rate_limited", `Too many ${what}; try again in ${retryAfter} s.`, {
      headers: { "Retry-After": String(retryAfter), ...rateLimitHeaders(state) },
    });
  }
  return state;
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
export async function enforcePublicChatflowLimit(
  chatflow: ChatflowLimit & { id: string },
  clientIp: string,
): Promise<RateLimitState | undefined> {
  const limit = publicRateLimit(chatflow);
  return limit ? enforceRateLimit(`predict:${chatflow.id}:${clientIp}`, limit.max, limit.windowSec * 1000) : undefined;
}
