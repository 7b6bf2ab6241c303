import type { findApiKeyByPrefix } from "../db/queries/api-keys";
import { TtlCache } from "../ttl-cache";

export type KeyRow = NonNullable<Awaited<ReturnType<typeof findApiKeyByPrefix>>>;
const holder = globalThis as unknown as { __switchyardKeys?: TtlCache<KeyRow | null> };

/**
 * Key rows (with their owner's role) by prefix: a prediction should not cost a database read for
 * its key. Revoking a key deletes its entry; deleting a user or changing a role clears them all,
 * so a removed or demoted owner's key stops at once in this process (other processes: ≤ 5 s).
 */
export const apiKeyCache = (holder.__switchyardKeys ??= new TtlCache<KeyRow | null>(5_000));
