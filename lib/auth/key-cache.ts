import type { findApiKeyByPrefix } from "../db/queries/api-keys";
import { TtlCache } from "../ttl-cache";

export type KeyRow = NonNullable<Awaited<ReturnType<typeof findApiKeyByPrefix>>>;
/** `false`: no key has this prefix (misses are cached too, see below). */
type Entry = KeyRow | false;
const holder = globalThis as unknown as { __switchyardKeys2?: TtlCache<Entry> };

/**
 * Key rows (with their owner's role) by prefix: a prediction should not cost a database read for
 * its key. Unknown prefixes are cached as misses like known ones, so an unknown prefix does not
 * answer slower than a wrong secret (that database read was the timing oracle). Creating a key
 * deletes its prefix's entry, revoking deletes it too; deleting a user or changing a role clears
 * them all, so a removed or demoted owner's key stops at once in this process (others: ≤ 5 s).
 */
export const apiKeyCache = (holder.__switchyardKeys2 ??= new TtlCache<Entry>(5_000));
