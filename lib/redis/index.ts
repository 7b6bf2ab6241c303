/**
 * Redis, when REDIS_URL is set (several server processes): one command connection and one
 * subscriber connection per process (see "redis" in lib/state/catalogue.ts). What goes through
 * Redis so far: the state events (bus-transport.ts) and the rate-limit counters
 * (lib/access/rate-limit.ts).
 */
import type { Redis } from "ioredis";
import { processState } from "../state/registry";
import { createRedisConnection } from "./connection";

export { createRedisConnection } from "./connection";
export { createRedisTransport, STATE_CHANNEL, type RedisTransportOptions } from "./bus-transport";

/** This process's connections to `url` (REDIS_URL), created on first use. */
export function redisConnections(url: string): { command: Redis; subscriber: Redis } {
  return processState("redis", () => ({
    command: createRedisConnection(url, "command"),
    subscriber: createRedisConnection(url, "subscriber"),
  }));
}
