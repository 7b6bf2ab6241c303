import type { BuiltFlow } from "./types";

export interface FlowCacheKey {
  chatflowId: string;
  version: number;
  /** Distinguishes builds of the same version with different overrides (e.g. a stable JSON of them). */
  variant?: string;
  /** Not part of the identity: the chatflow's owner, whose role decided which credentials resolved. */
  ownerId?: string | null;
}

/** Given to a build: it reports each credential it resolves, before resolving it. */
export type UsesCredential = (credentialId: string) => void;

interface Entry {
  chatflowId: string;
  version: number;
  ownerId: string | null;
  credentialIds: Set<string>;
  promise: Promise<BuiltFlow>;
}

/**
 * Built flows by chatflow id + version (+ variant). A flow is built once: concurrent requests share
 * the same build promise; a failed build is forgotten so the next request tries again; builds of
 * several versions of one chatflow live side by side (the published one for the API, the draft for
 * the studio's test chat; a save drops them all, see invalidate); the least recently used entries
 * go beyond `maxEntries`. Each entry remembers the credentials its build resolved and the chatflow's owner,
 * so a change to either drops exactly the builds it makes stale (the process registers it with
 * the invalidation bus, see lib/services/flows.ts).
 */
export class FlowCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 200) {}

  /** The built flow for `key`, building it with `build` when not cached. */
  get(key: FlowCacheKey, build: (usesCredential: UsesCredential) => Promise<BuiltFlow>): Promise<BuiltFlow> {
    const id = `${key.chatflowId}\u0000${key.version}\u0000${key.variant ?? ""}`;
    const hit = this.entries.get(id);
    if (hit) {
      this.entries.delete(id);
      this.entries.set(id, hit);
      return hit.promise;
    }
    const credentialIds = new Set<string>();
    const promise = build((credentialId) => void credentialIds.add(credentialId));
    this.entries.set(id, {
      chatflowId: key.chatflowId,
      version: key.version,
      ownerId: key.ownerId ?? null,
      credentialIds,
      promise,
    });
    promise.catch(() => {
      if (this.entries.get(id)?.promise === promise) this.entries.delete(id);
    });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return promise;
  }

  /** Forgets every build of a chatflow (saved or deleted). */
  invalidate(chatflowId: string): void {
    this.dropWhere((e) => e.chatflowId === chatflowId);
  }

  /** Forgets every build that resolved this credential (rotated, re-shared, transferred or deleted). */
  invalidateCredential(credentialId: string): void {
    this.dropWhere((e) => e.credentialIds.has(credentialId));
  }

  /** Forgets every build of the chatflows this user owns (role changed, user deleted). */
  invalidateOwner(ownerId: string): void {
    this.dropWhere((e) => e.ownerId === ownerId);
  }

  /** Forgets every build. */
  clear(): void {
    this.entries.clear();
  }

  /** Number of cached builds. */
  get size(): number {
    return this.entries.size;
  }

  private dropWhere(match: (e: Entry) => boolean): void {
    for (const [id, e] of this.entries) if (match(e)) this.entries.delete(id);
  }
}
