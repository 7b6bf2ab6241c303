import { describe, expect, it } from "vitest";
import { FlowCache } from "./cache";
import type { BuiltFlow } from "./types";

const fakeFlow = (id: string) =>
  ({
    chatflowId: id,
    endingNodeId: "end",
    allowsImages: false,
    run: async () => ({ text: "", usedTools: [] }),
  }) as BuiltFlow;

/** A cache with flow f1 (credential c1, owner u1), f2 (c1 and c2, owner u2), f3 (nothing, no owner). */
async function filled() {
  const cache = new FlowCache();
  let builds = 0;
  const build = (id: string, creds: string[]) => async (uses: (c: string) => void) => {
    builds += 1;
    creds.forEach(uses);
    return fakeFlow(id);
  };
  const specs = {
    f1: { creds: ["c1"], ownerId: "u1" },
    f2: { creds: ["c1", "c2"], ownerId: "u2" },
    f3: { creds: [], ownerId: null },
  };
  const getAll = () =>
    Promise.all(
      Object.entries(specs).map(([id, s]) =>
        cache.get({ chatflowId: id, version: 1, ownerId: s.ownerId }, build(id, s.creds)),
      ),
    );
  await getAll();
  return { cache, getAll, builds: () => builds };
}

describe("FlowCache invalidation", () => {
  it("a credential change drops exactly the builds that resolved it", async () => {
    const { cache, getAll, builds } = await filled();
    cache.invalidateCredential("c2");
    expect(cache.size).toBe(2);
    await getAll();
    expect(builds()).toBe(4);
    cache.invalidateCredential("c1");
    expect(cache.size).toBe(1);
    cache.invalidateCredential("unknown");
    expect(cache.size).toBe(1);
  });

  it("an owner change drops the builds of their chatflows; a chatflow change drops its own", async () => {
    const { cache } = await filled();
    cache.invalidateOwner("u1");
    expect(cache.size).toBe(2);
    cache.invalidate("f3");
    expect(cache.size).toBe(1);
  });

  it("keeps builds of two versions of one chatflow side by side (published and draft) until it changes", async () => {
    const { cache } = await filled();
    let built = 0;
    const build = () => async () => {
      built++;
      return fakeFlow("f1");
    };
    await cache.get({ chatflowId: "f1", version: 2, ownerId: "u1" }, build());
    await cache.get({ chatflowId: "f1", version: 1, ownerId: "u1" }, build());
    await cache.get({ chatflowId: "f1", version: 2, ownerId: "u1" }, build());
    expect(cache.size).toBe(4);
    expect(built).toBe(1); // version 1 was still cached from filled(); version 2 built once
    cache.invalidate("f1");
    expect(cache.size).toBe(2);
  });

  it("a build running when a credential it resolved changes serves its request but is not kept", async () => {
    const cache = new FlowCache();
    let finish!: () => void;
    let builds = 0;
    const build = async (uses: (c: string) => void) => {
      builds += 1;
      uses("c1");
      await new Promise<void>((r) => (finish = r));
      return fakeFlow("f");
    };
    const pending = cache.get({ chatflowId: "f", version: 1 }, build);
    cache.invalidateCredential("c1");
    finish();
    expect((await pending).chatflowId).toBe("f");
    expect(cache.size).toBe(0);
    const next = cache.get({ chatflowId: "f", version: 1 }, build);
    finish();
    await next;
    expect(builds).toBe(2);
    expect(cache.size).toBe(1);
  });
});
