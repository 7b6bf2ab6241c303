/**
 * A small in-process cache with a time-to-live, for hot reads on the prediction path (API keys,
 * chatflow rows). Events on the invalidation bus delete entries at once (see lib/state); the TTL
 * is the backstop: other processes (queue mode) see a change after at most `ttlMs`.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** The cached value, or the loaded one (cached unless it is null/undefined). */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.value;
    const value = await load();
    if (value !== null && value !== undefined) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
    }
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Deletes every entry whose value matches (e.g. the keys of one owner). */
  deleteWhere(match: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (match(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
