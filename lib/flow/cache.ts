import type { BuiltFlow } from "./types";

export interface FlowCacheKey {
  chatflowId: string;
  version: number;
  /** Distinguishes builds of the same version with different overrides (e.g. a stable JSON of them). */
  variant?: string;
}

interface Entry {
  chatflowId: string;
  version: number;
  promise: Promise<BuiltFlow>;
}

/**
 * Built flows by chatflow id + version (+ variant). A flow is built once: concurrent requests share
 * the same build promise; a failed build is forgotten so the next request tries again; storing a
 * new version evicts the chatflow's older versions; the least recently used entries go beyond
 * `maxEntries`. The only process-wide state of the engine, and only a cache.
 */
export class FlowCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 200) {}

  /** The built flow for `key`, building it with `build` when not cached. */
  get(key: FlowCacheKey, build: () => Promise<BuiltFlow>): Promise<BuiltFlow> {
    const id = `${key.chatflowId}\u0000${key.version}\u0000${key.variant ?? ""}`;
    const hit = this.entries.get(id);
    if (hit) {
      this.entries.delete(id);
      this.entries.set(id, hit);
      return hit.promise;
    }
    this.evictOtherVersions(key.chatflowId, key.version);
    const promise = build();
    this.entries.set(id, { chatflowId: key.chatflowId, version: key.version, promise });
    promise.catch(() => {
      if (this.entries.get(id)?.promise === promise) this.entries.delete(id);
    });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return promise;
  }

  /** Forgets every build of a chatflow (e.g. when it is deleted or a credential changes). */
  invalidate(chatflowId: string): void {
    for (const [id, e] of this.entries) if (e.chatflowId === chatflowId) this.entries.delete(id);
  }

  /** Forgets every build: built flows hold decrypted credentials, so a credential change clears them. */
  clear(): void {
    this.entries.clear();
  }

  /** Number of cached builds. */
  get size(): number {
    return this.entries.size;
  }

  private evictOtherVersions(chatflowId: string, version: number): void {
    for (const [id, e] of this.entries) if (e.chatflowId === chatflowId && e.version !== version) this.entries.delete(id);
  }
}
