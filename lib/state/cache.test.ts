import { afterEach, describe, expect, it, vi } from "vitest";
import { createInProcessBus, on } from "./bus";
import { Cache } from "./cache";

/** A load the test finishes (or fails) when it chooses, counting how often it ran. */
function gate<V>() {
  let calls = 0;
  let resolve!: (value: V) => void;
  let reject!: (err: Error) => void;
  const load = () => {
    calls += 1;
    return new Promise<V>((res, rej) => {
      resolve = res;
      reject = rej;
    });
  };
  return { load, calls: () => calls, resolve: (v: V) => resolve(v), reject: (e: Error) => reject(e) };
}

const value = (v: string) => async () => v;

afterEach(() => {
  vi.useRealTimers();
});

describe("Cache", () => {
  it("evicts the least recently used entry beyond max, a read counting as a use", async () => {
    const cache = new Cache<string>({ max: 2 });
    await cache.get("a", value("A"));
    await cache.get("b", value("B"));
    expect(cache.getHeld("a")).toBe("A");
    await cache.get("c", value("C"));
    expect([cache.peek("a"), cache.peek("b"), cache.peek("c")]).toEqual(["A", undefined, "C"]);
    // peek leaves the order: "a" is still the least recently used.
    cache.peek("a");
    cache.set("d", "D");
    expect(cache.peek("a")).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it("keeps within a byte bound, as sizeOf counts, evicting the least recently used", () => {
    const cache = new Cache<string>({}, { bytes: { maxBytes: 10, sizeOf: (v) => v.length } });
    cache.set("a", "1234");
    cache.set("b", "1234");
    expect(cache.bytes).toBe(8);
    cache.set("c", "1234");
    expect([cache.peek("a"), cache.peek("b"), cache.peek("c")]).toEqual([undefined, "1234", "1234"]);
    expect(cache.bytes).toBe(8);
  });

  it("serves an entry for its TTL after it was stored, then loads it again", async () => {
    vi.useFakeTimers();
    const cache = new Cache<string>({ max: 10, ttlMs: 1_000 }, { clock: Date });
    const load = vi.fn(value("A"));
    await cache.get("a", load);
    vi.advanceTimersByTime(1_000);
    expect(await cache.get("a", load)).toBe("A");
    expect(load).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(cache.peek("a")).toBeUndefined();
    await cache.get("a", load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("loads once for concurrent misses of a key, and keeps the value", async () => {
    const cache = new Cache<string>({ max: 10 });
    const g = gate<string>();
    const both = Promise.all([cache.get("a", g.load), cache.get("a", g.load)]);
    g.resolve("A");
    expect(await both).toEqual(["A", "A"]);
    expect(g.calls()).toBe(1);
    expect(await cache.get("a", g.load)).toBe("A");
    expect(g.calls()).toBe(1);
  });

  it("gives a failed load's error to every waiter and keeps nothing: the next call loads again", async () => {
    const cache = new Cache<string>({ max: 10 });
    const g = gate<string>();
    const first = cache.get("a", g.load);
    const second = cache.get("a", g.load);
    g.reject(new Error("database down"));
    await expect(first).rejects.toThrow("database down");
    await expect(second).rejects.toThrow("database down");
    expect(cache.size).toBe(0);
    expect(await cache.get("a", value("A"))).toBe("A");
  });

  it("keeps no null or undefined: every call asks again", async () => {
    const cache = new Cache<string>({ max: 10 });
    const load = vi.fn(async () => null);
    expect(await cache.get("a", load)).toBeUndefined();
    expect(await cache.get("a", async () => undefined)).toBeUndefined();
    expect(await cache.get("a", load)).toBeUndefined();
    expect(load).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
  });

  it("caches false (a known miss) like any value", async () => {
    const cache = new Cache<string | false>({ max: 10 });
    const load = vi.fn(async () => false as const);
    await cache.get("a", load);
    expect(await cache.get("a", load)).toBe(false);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("delete, deleteWhere and clear drop what they name", async () => {
    const cache = new Cache<{ owner: string }>({ max: 10 });
    for (const [key, owner] of [
      ["a", "u1"],
      ["b", "u2"],
      ["c", "u2"],
    ])
      cache.set(key, { owner });
    cache.deleteWhere((v) => v.owner === "u1");
    expect([cache.peek("a"), cache.peek("b")]).toEqual([undefined, { owner: "u2" }]);
    cache.deleteWhere((_, key) => key === "b");
    expect(cache.peek("b")).toBeUndefined();
    const load = vi.fn(async () => ({ owner: "reloaded" }));
    expect(await cache.get("c", load)).toEqual({ owner: "u2" });
    cache.delete("c");
    expect(await cache.get("c", load)).toEqual({ owner: "reloaded" });
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it("a load running when its key is dropped serves its waiters but is not kept; the next call loads afresh", async () => {
    const cache = new Cache<string>({ max: 10 });
    const stale = gate<string>();
    const waiting = cache.get("a", stale.load);
    cache.delete("a");
    const fresh = gate<string>();
    const next = cache.get("a", fresh.load);
    expect(fresh.calls()).toBe(1);
    stale.resolve("old");
    expect(await waiting).toBe("old");
    expect(cache.peek("a")).toBeUndefined();
    fresh.resolve("new");
    expect(await next).toBe("new");
    expect(cache.peek("a")).toBe("new");
  });

  it("keeps no load that was running during deleteWhere or clear (its value is not known to match or not)", async () => {
    const cache = new Cache<string>({ max: 10 });
    for (const drop of [() => cache.deleteWhere(() => false), () => cache.clear()]) {
      const g = gate<string>();
      const waiting = cache.get("a", g.load);
      drop();
      g.resolve("A");
      expect(await waiting).toBe("A");
      expect(cache.peek("a")).toBeUndefined();
    }
  });

  it("subscribed to the bus, drops an entry (and a load in flight) before publish resolves", async () => {
    const bus = createInProcessBus();
    const cache = new Cache<string>({ max: 10 });
    bus.subscribe(on({ "chatflow.saved": (e) => cache.delete(e.chatflowId) }));
    cache.set("f1", "row 1");
    cache.set("f2", "row 2");
    const g = gate<string>();
    const loading = cache.get("f3", g.load);
    await bus.publish({ type: "chatflow.saved", chatflowId: "f1" });
    await bus.publish({ type: "chatflow.saved", chatflowId: "f3" });
    g.resolve("row 3, read before the save");
    await loading;
    expect([cache.peek("f1"), cache.peek("f2"), cache.peek("f3")]).toEqual([undefined, "row 2", undefined]);
  });
});
