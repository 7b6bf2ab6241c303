import { describe, expect, it } from "vitest";
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
    const limits = new RateLimits();
    await limits.hit("k", 1, 1_000);
    expect(await limits.hit("k", 1, 1_000)).toBe(1);
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await limits.hit("k", 1, 1_000)).toBe(0);
  });
});
