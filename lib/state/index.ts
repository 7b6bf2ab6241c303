/**
 * One home for shared runtime state: the list of everything a process keeps (catalogue.ts), the
 * slot of each (processState), and the invalidation bus caches subscribe to and services publish
 * on. Depends on nothing else of the app but lib/env and lib/redis (the bus over Redis when
 * REDIS_URL is set), so every layer may use it.
 */
import { getEnv } from "../env";
import { createRedisTransport, redisConnections } from "../redis";
import { createInProcessBus, createRelayedBus, type InvalidationBus } from "./bus";
import type { StateEvent } from "./events";
import { processState } from "./registry";

export {
  createInProcessBus,
  createRelayedBus,
  on,
  type BusTransport,
  type InvalidationBus,
  type StateEventHandler,
} from "./bus";
export { parseStateEvent, stateEventSchema, type EventOf, type StateEvent, type StateEventType } from "./events";
export { PROCESS_STATE, type ProcessStateName } from "./catalogue";
export { forgetProcessState, listProcessState, processState } from "./registry";
export { Cache, type CacheBounds, type CacheOptions } from "./cache";

/**
 * The invalidation bus of this process: in-process without REDIS_URL; with it, relayed over Redis
 * pub/sub (lib/redis/bus-transport.ts) so every process's caches hear every change. Nothing that
 * publishes or subscribes sees the difference.
 */
export function stateBus(): InvalidationBus {
  return processState("bus", () => {
    const url = getEnv().REDIS_URL;
    if (!url) return createInProcessBus();
    const { command, subscriber } = redisConnections(url);
    return createRelayedBus(createRedisTransport({ publisher: command, subscriber }));
  });
}

/**
 * Announces a change after the write that made it: every cache of this process has dropped what
 * it made stale when this resolves. Services call it; they never reach into a cache.
 */
export function publishChange(event: StateEvent): Promise<void> {
  return stateBus().publish(event);
}
