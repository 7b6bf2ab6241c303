import { z } from "zod";

/**
 * What changed, as small plain data: an event names the row, never carries its values, so it can
 * cross a process boundary (Redis pub/sub in queue mode) as JSON. Services publish these after the
 * database write; caches subscribe and drop what the change makes stale.
 */
export const stateEventSchema = z.discriminatedUnion("type", [
  /** Saved (any field, also a transfer): its cached row and every build of it are stale. */
  z.object({ type: z.literal("chatflow.saved"), chatflowId: z.string() }),
  z.object({ type: z.literal("chatflow.deleted"), chatflowId: z.string() }),
  /** Some of a chatflow's stored messages were deleted: its cached session histories are stale. */
  z.object({ type: z.literal("chatMessages.deleted"), chatflowId: z.string() }),
  /** Values rotated, renamed, shared or transferred: every flow built with it is stale. */
  z.object({ type: z.literal("credential.updated"), credentialId: z.string() }),
  z.object({ type: z.literal("credential.deleted"), credentialId: z.string() }),
  /** A new key: a cached miss for its prefix must not hide it. */
  z.object({ type: z.literal("apiKey.created"), apiKeyId: z.string(), prefix: z.string() }),
  /** Revoked (or otherwise changed): refused from the next request on. */
  z.object({ type: z.literal("apiKey.revoked"), apiKeyId: z.string(), prefix: z.string() }),
  /** A role change: the user's keys and the flows they own were checked against the old role. */
  z.object({ type: z.literal("user.roleChanged"), userId: z.string() }),
  /** Deleted (keys gone, chatflows and credentials moved to another owner). */
  z.object({ type: z.literal("user.deleted"), userId: z.string() }),
  /** A global variable was created, changed or deleted: the values runs see as `$vars` are stale. */
  z.object({ type: z.literal("variables.changed") }),
  /** The admins' model prices were replaced: the price table in force is stale. */
  z.object({ type: z.literal("modelPrices.changed") }),
  /**
   * Events may have been missed (this process's Redis subscriber reconnected after an outage):
   * every cache drops everything. Delivered locally by the Redis transport; never published.
   */
  z.object({ type: z.literal("state.resync") }),
]);

export type StateEvent = z.infer<typeof stateEventSchema>;
export type StateEventType = StateEvent["type"];
/** The event of one type, e.g. `EventOf<"credential.updated">`. */
export type EventOf<T extends StateEventType> = Extract<StateEvent, { type: T }>;

/** A StateEvent from untrusted JSON (another process's message); null when it is none. */
export function parseStateEvent(value: unknown): StateEvent | null {
  const parsed = stateEventSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
