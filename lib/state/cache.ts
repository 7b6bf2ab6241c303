import { LRUCache } from "lru-cache";

/** A cache's bounds, as the catalogue lists them (catalogue.ts): the backstop behind invalidation. */
export interface CacheBounds {
  /** Entries held at most: beyond it, the least recently used go. */
  max?: number;
  /** How long an entry is served after it was stored (ms). */
  ttlMs?: number;
  /** The setting that bounds the bytes held (given to the cache as `maxBytes` with `sizeOf`). */
  maxBytesFrom?: "SESSION_HISTORY_CACHE_MB";
}

/** What the catalogue cannot hold: a byte bound read from a setting, and the clock (tests). */
export interface CacheOptions<V> {
  /** Bytes held at most, as `sizeOf` counts them: beyond it, the least recently used go. */
  bytes?: { maxBytes: number; sizeOf: (value: V) => number };
  /** Where time comes from for the TTL; tests pass a fake one. */
  clock?: { now(): number };
}

/**
 * The one in-process cache: every instance is listed, with its bounds, in catalogue.ts. lru-cache
 * holds the entries (least recently used evicted first, time to live, byte sizes); concurrent
 * misses of a key share one load, tracked here rather than with lru-cache's fetch(): that one
 * rejects every waiter when its entry is deleted mid-load, and an invalidation must not fail the
 * request it raced.
 *
 * A load is not kept when it gives null or undefined (nothing to serve: the next call asks again),
 * when it fails (each waiter gets the error, the next call loads again), or when its key was
 * dropped while it ran (it may have read what the drop made stale: its waiters get it, the next
 * call loads afresh).
 */
export class Cache<V extends {}> {
  private readonly entries: LRUCache<string, V>;
  private readonly loading = new Map<string, Promise<V | undefined>>();

  constructor(bounds: CacheBounds, options: CacheOptions<V> = {}) {
    this.entries = new LRUCache<string, V>({
      max: bounds.max ?? 0,
      ttl: bounds.ttlMs ?? 0,
      maxSize: options.bytes?.maxBytes ?? 0,
      sizeCalculation: options.bytes?.sizeOf,
      perf: options.clock,
    });
  }

  /** The value of `key`: held, being loaded, or loaded now with `load`. */
  get(key: string, load: () => Promise<V | null | undefined>): Promise<V | undefined> {
    const held = this.entries.get(key);
    if (held !== undefined) return Promise.resolve(held);
    return this.loading.get(key) ?? this.startLoad(key, load);
  }

  /** The held value of `key`, now the most recently used; no load. */
  getHeld(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** The held value of `key`, leaving the order of use as it is. */
  peek(key: string): V | undefined {
    return this.entries.peek(key);
  }

  /** Holds `value` for `key`; a load of `key` still running is not kept. */
  set(key: string, value: V): void {
    this.loading.delete(key);
    this.entries.set(key, value);
  }

  delete(key: string): void {
    this.loading.delete(key);
    this.entries.delete(key);
  }

  /**
   * Drops every entry that matches (e.g. the keys of one owner). What a running load will give is
   * not known yet, so no load running now is kept.
   */
  deleteWhere(match: (value: V, key: string) => boolean): void {
    const doomed: string[] = [];
    // Listed first: the LRU is not changed while it is walked.
    for (const [key, value] of this.entries.entries()) if (match(value, key)) doomed.push(key);
    for (const key of doomed) this.entries.delete(key);
    this.loading.clear();
  }

  clear(): void {
    this.loading.clear();
    this.entries.clear();
  }

  /** Entries held (loads running are not counted). */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes held, as `sizeOf` counts them (0 without a byte bound). */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  private startLoad(key: string, load: () => Promise<V | null | undefined>): Promise<V | undefined> {
    const loading: Promise<V | undefined> = load().then(
      (value) => {
        const current = this.loading.get(key) === loading;
        if (current) this.loading.delete(key);
        if (value === null || value === undefined) return undefined;
        if (current) this.entries.set(key, value);
        return value;
      },
      (err: unknown) => {
        if (this.loading.get(key) === loading) this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, loading);
    return loading;
  }
}
