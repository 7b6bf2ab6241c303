import { Cache } from "../state/cache";
import { PROCESS_STATE } from "../state/catalogue";
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

/** A kept build, with what makes it stale. */
interface Build {
  flow: BuiltFlow;
  chatflowId: string;
  ownerId: string | null;
  credentialIds: Set<string>;
}

const flowOf = (build: Build | undefined) => build!.flow;

/** Runs `build`, noting each credential it resolves. */
async function runBuild(
  key: FlowCacheKey,
  build: (usesCredential: UsesCredential) => Promise<BuiltFlow>,
): Promise<Build> {
  const credentialIds = new Set<string>();
  const flow = await build((credentialId) => void credentialIds.add(credentialId));
  return { flow, chatflowId: key.chatflowId, ownerId: key.ownerId ?? null, credentialIds };
}

/**
 * Built flows by chatflow id + version (+ variant), in the one cache (lib/state/cache.ts) with the
 * bounds of "builtFlows" in the catalogue. A flow is built once: concurrent requests share the
 * build; a failed build is forgotten so the next request tries again; builds of several versions
 * of one chatflow live side by side (the published one for the API, the draft for the studio's
 * test chat; a save drops them all, see invalidate); the least recently used go beyond the cap.
 * Each build remembers the credentials it resolved and the chatflow's owner, so a change to either
 * drops exactly the builds it makes stale (the process registers it with the invalidation bus, see
 * lib/services/flows.ts); a build still running when anything is dropped serves its requests but
 * is not kept (it may have resolved what changed).
 */
export class FlowCache {
  private readonly builds = new Cache<Build>(PROCESS_STATE.builtFlows.cache);

  /** The built flow for `key`, building it with `build` when not cached. */
  get(key: FlowCacheKey, build: (usesCredential: UsesCredential) => Promise<BuiltFlow>): Promise<BuiltFlow> {
    const id = `${key.chatflowId}\u0000${key.version}\u0000${key.variant ?? ""}`;
    // Checked first so that a hit makes no closure.
    const held = this.builds.getHeld(id);
    if (held) return Promise.resolve(held.flow);
    return this.builds.get(id, () => runBuild(key, build)).then(flowOf);
  }

  /** Forgets every build of a chatflow (saved or deleted). */
  invalidate(chatflowId: string): void {
    this.builds.deleteWhere((b) => b.chatflowId === chatflowId);
  }

  /** Forgets every build that resolved this credential (rotated, re-shared, transferred or deleted). */
  invalidateCredential(credentialId: string): void {
    this.builds.deleteWhere((b) => b.credentialIds.has(credentialId));
  }

  /** Forgets every build of the chatflows this user owns (role changed, user deleted). */
  invalidateOwner(ownerId: string): void {
    this.builds.deleteWhere((b) => b.ownerId === ownerId);
  }

  /** Forgets every build. */
  clear(): void {
    this.builds.clear();
  }

  /** Number of kept builds (builds still running are not counted). */
  get size(): number {
    return this.builds.size;
  }
}
