import { parseStateEvent, type EventOf, type StateEvent, type StateEventType } from "./events";
import { errorText, log } from "../log";

/** Receives events; an exception is logged by the bus and does not stop other subscribers. */
export type StateEventHandler = (event: StateEvent) => void;

/**
 * Where changes to shared state are announced. Services `publish` after a write; caches
 * `subscribe` when they are created and drop what an event makes stale. Events are plain data
 * (see events.ts). `publish` resolves once every subscriber of this process has run, so the
 * caller's next request already sees the change.
 *
 * Backing it with Redis (queue mode, several processes) keeps this interface: createRelayedBus
 * over a Redis BusTransport delivers locally as here and also sends the event on a channel, and
 * delivers what other processes send. TTLs stay as the backstop for a lost message.
 */
export interface InvalidationBus {
  publish(event: StateEvent): Promise<void>;
  /** Adds a handler; returns the function that removes it. */
  subscribe(handler: StateEventHandler): () => void;
}

/** The bus of one process: subscribers run synchronously, in the order they subscribed. */
export function createInProcessBus(log: (msg: string, err: unknown) => void = defaultLog): InvalidationBus {
  const handlers = new Set<StateEventHandler>();
  return {
    async publish(event) {
      for (const handler of [...handlers]) {
        try {
          handler(event);
        } catch (err) {
          log(`state event ${event.type} failed in a subscriber`, err);
        }
      }
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => void handlers.delete(handler);
    },
  };
}

/** Handlers by event type, as one subscriber: `bus.subscribe(on({ "chatflow.saved": (e) => … }))`. */
export function on(handlers: { [T in StateEventType]?: (event: EventOf<T>) => void }): StateEventHandler {
  return (event) => (handlers[event.type] as ((e: StateEvent) => void) | undefined)?.(event);
}

function defaultLog(msg: string, err: unknown): void {
  log.warn({ reason: errorText(err) }, msg);
}

/**
 * Carries events between processes (Redis pub/sub in queue mode, next issue). `listen` must not
 * hand a process its own events back (tag messages with a process id and skip those).
 */
export interface BusTransport {
  send(event: StateEvent): Promise<void>;
  /** Calls `receive` with each message of another process, as parsed JSON (checked before use). */
  listen(receive: (message: unknown) => void): () => void;
}

/**
 * A bus shared by several processes: `publish` delivers here first (so this process's next
 * request sees the change), then sends; what other processes send is checked and delivered here.
 * A failed send is logged, not thrown: the write is done, and other processes' TTLs still expire.
 */
export function createRelayedBus(
  transport: BusTransport,
  log: (msg: string, err: unknown) => void = defaultLog,
): InvalidationBus & { close(): void } {
  const local = createInProcessBus(log);
  const close = transport.listen((message) => {
    const event = parseStateEvent(message);
    if (event) void local.publish(event);
    else log("ignored a malformed state event from another process", message);
  });
  return {
    async publish(event) {
      await local.publish(event);
      await transport.send(event).catch((err) => log(`state event ${event.type} was not sent to other processes`, err));
    },
    subscribe: (handler) => local.subscribe(handler),
    close,
  };
}
