/**
 * One home for shared runtime state: the list of everything a process keeps (catalogue.ts), the
 * slot of each (processState), and the invalidation bus caches subscribe to and services publish
 * on. Depends on nothing else of the app, so every layer may use it.
 */
import { createInProcessBus, type InvalidationBus } from "./bus";
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
export { TtlCache } from "./ttl-cache";

/**
 * The invalidation bus of this process. In-process today; queue mode will create
 * `createRelayedBus(redisTransport)` here instead, and nothing that publishes or subscribes changes.
 */
export function stateBus(): InvalidationBus {
  return processState("bus", () => createInProcessBus());
}

/**
 * Announces a change after the write that made it: every cache of this process has dropped what
 * it made stale when this resolves. Services call it; they never reach into a cache.
 */
export function publishChange(event: StateEvent): Promise<void> {
  return stateBus().publish(event);
}
