import type { findApiKeyByPrefix } from "../db/queries/api-keys";
import { Cache, on, PROCESS_STATE, processState, stateBus } from "../state";

export type KeyRow = NonNullable<Awaited<ReturnType<typeof findApiKeyByPrefix>>>;
/** `false`: no key has this prefix (misses are cached too, see below). */
type Entry = KeyRow | false;

/**
 * Key rows (with their owner's role) by prefix: a prediction should not cost a database read for
 * its key. Unknown prefixes are cached as misses like known ones, so an unknown prefix does not
 * answer slower than a wrong secret (that database read was the timing oracle). Events on the
 * state bus ("apiKeys" in lib/state/catalogue.ts): a created or revoked key drops its prefix's
 * entry; a deleted or re-roled user drops their keys, so a removed or demoted owner's key stops at
 * once in this process (others: ≤ 5 s, the TTL).
 */
export const apiKeyCache = processState("apiKeys", () => {
  const cache = new Cache<Entry>(PROCESS_STATE.apiKeys.cache);
  const dropOwner = (userId: string) => cache.deleteWhere((row) => row !== false && row.createdById === userId);
  stateBus().subscribe(
    on({
      "apiKey.created": (e) => cache.delete(e.prefix),
      "apiKey.revoked": (e) => cache.delete(e.prefix),
      "user.roleChanged": (e) => dropOwner(e.userId),
      "user.deleted": (e) => dropOwner(e.userId),
      "state.resync": () => cache.clear(),
    }),
  );
  return cache;
});
