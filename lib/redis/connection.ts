import { Redis, type RedisOptions } from "ioredis";
import { errorText, log } from "../log";

/** How long a (re)connect may take before it counts as failed, in ms. */
const CONNECT_TIMEOUT_MS = 2_000;
/** How long one command may take before it fails, in ms. */
const COMMAND_TIMEOUT_MS = 1_000;

/**
 * A connection to REDIS_URL. Command connections fail fast when Redis is down: no offline queue
 * (a command on a broken connection rejects at once), one retry, a command timeout. So a caller
 * never hangs on a dead Redis; it gets an error it can fall back from (the rate limits' insurance
 * limiter, the bus's logged send). A subscriber connection keeps its offline queue so its
 * SUBSCRIBE waits for the first connect; ioredis subscribes again after each reconnect. Both
 * reconnect forever, at most 2 s apart.
 */
export function createRedisConnection(
  url: string,
  role: "command" | "subscriber",
  log: (msg: string, err: unknown) => void = defaultLog,
): Redis {
  const options: RedisOptions = {
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    ...(role === "command"
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: COMMAND_TIMEOUT_MS }
      : { enableOfflineQueue: true, maxRetriesPerRequest: null }),
  };
  const redis = new Redis(url, options);
  let reported = false;
  // Without a listener ioredis prints every failed reconnect; log the first of each outage only.
  redis.on("error", (err) => {
    if (!reported) log(`Redis ${role} connection failed (retrying)`, err);
    reported = true;
  });
  redis.on("ready", () => {
    reported = false;
  });
  redis.on("reconnecting", (delayMs: number) => logReconnect(role, delayMs));
  return redis;
}

function defaultLog(msg: string, err: unknown): void {
  log.warn({ reason: errorText(err) }, msg);
}

/** Each retry, at debug level (LOG_LEVEL=debug): the outage's rounds can be followed (and waited on by a test). */
function logReconnect(role: "command" | "subscriber", delayMs: number): void {
  log.debug({ role, delayMs }, "Redis reconnecting");
}
