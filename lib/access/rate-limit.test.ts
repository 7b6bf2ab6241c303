import { describe, expect, it, vi } from "vitest";
import { RateLimits } from "./rate-limit";

describe("RateLimits in process memory (no REDIS_URL)", () => {
  it("allows max requests per window, then answers the seconds to wait", async () => {
    const limits = new RateLimits();
    for (let i = 0; i < 3; i++) expect(await limits.hit("k", 3, 60_000)).toBe(0);
    const wait = await limits.hit("k", 3, 60_000);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await limits.hit("other", 3, 60_000)).toBe(0);
  });

  it("exceeded counts nothing; reset forgets the key", async () => {
    const limits = new RateLimits();
    expect(await limits.exceeded("k", 2, 60_000)).toBe(0);
    await limits.hit("k", 2, 60_000);
    expect(await limits.exceeded("k", 2, 60_000)).toBe(0);
    await limits.hit("k", 2, 60_000);
    expect(await limits.exceeded("k", 2, 60_000)).toBeGreaterThan(0);
    await limits.reset("k", 2, 60_000);
    expect(await limits.exceeded("k", 2, 60_000)).toBe(0);
    expect(await limits.hit("k", 2, 60_000)).toBe(0);
  });

  it("a window ends", async () => {
    // The window's end is the subject: the clock is moved past it instead of waiting for it.
    vi.useFakeTimers();
    try {
      const limits = new RateLimits();
      await limits.hit("k", 1, 1_000);
      expect(await limits.hit("k", 1, 1_000)).toBe(1);
      await vi.advanceTimersByTimeAsync(900);
      expect(await limits.hit("k", 1, 1_000)).toBe(1);
      await vi.advanceTimersByTimeAsync(200);
      expect(await limits.hit("k", 1, 1_000)).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
