import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { BusTransport } from "../state/bus";
import type { StateEvent } from "../state/events";
import { errorText, log } from "../log";

/** The pub/sub channel of state events. */
export const STATE_CHANNEL = "switchyard:state";

export type RedisTransportOptions = {
  /** A command connection (createRedisConnection(url, "command")): PUBLISH fails fast when Redis is down. */
  publisher: Redis;
  /** A subscriber connection of its own (a subscribed connection runs no other commands). */
  subscriber: Redis;
  channel?: string;
  /** Tags this process's messages, so it skips them when Redis hands them back. */
  processId?: string;
  log?: (msg: string, err: unknown) => void;
};

/**
 * State events over Redis pub/sub, for createRelayedBus: each message is
 * `{"from": processId, "event": …}` as JSON on one channel. A process ignores its own messages;
 * the relayed bus checks the rest with parseStateEvent (malformed ones are logged and dropped).
 *
 * Pub/sub keeps nothing for a process that is not connected: when the subscriber connects again
 * after an outage, events of that time are lost. So on every reconnect (not the first connect)
 * `listen` delivers `{"type": "state.resync"}` locally, and every cache drops everything.
 */
export function createRedisTransport(options: RedisTransportOptions): BusTransport {
  const { publisher, subscriber, channel = STATE_CHANNEL, processId = randomUUID(), log = defaultLog } = options;
  return {
    async send(event: StateEvent) {
      await publisher.publish(channel, JSON.stringify({ from: processId, event }));
    },
    listen(receive) {
      const onMessage = (ch: string, raw: string) => {
        if (ch !== channel) return;
        const message = parseJson(raw);
        if (isRecord(message) && message.from === processId) return;
        receive(isRecord(message) && "event" in message ? message.event : message);
      };
      let connectedBefore = subscriber.status === "ready";
      const onReady = () => {
        if (connectedBefore) receive({ type: "state.resync" });
        connectedBefore = true;
      };
      subscriber.on("message", onMessage);
      subscriber.on("ready", onReady);
      subscriber.subscribe(channel).catch((err) => log(`could not subscribe to ${channel}`, err));
      return () => {
        subscriber.off("message", onMessage);
        subscriber.off("ready", onReady);
        subscriber.unsubscribe(channel).catch(() => {});
      };
    },
  };
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function defaultLog(msg: string, err: unknown): void {
  log.warn({ reason: errorText(err) }, msg);
}
