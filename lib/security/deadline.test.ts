import { describe, expect, it } from "vitest";
import { linkedDeadline } from "./deadline";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("linkedDeadline", () => {
  it("aborts with a TimeoutError when the time is up, and says so", async () => {
    const d = linkedDeadline(undefined, 20);
    expect(d.signal.aborted).toBe(false);
    await tick(60);
    expect(d.signal.aborted).toBe(true);
    expect((d.signal.reason as DOMException).name).toBe("TimeoutError");
    expect(d.expired()).toBe(true);
  });

  it("aborts with the caller's reason when the caller aborts first; not expired", () => {
    const outer = new AbortController();
    const d = linkedDeadline(outer.signal, 10_000);
    const reason = new Error("client went away");
    outer.abort(reason);
    expect(d.signal.aborted).toBe(true);
    expect(d.signal.reason).toBe(reason);
    expect(d.expired()).toBe(false);
    d.release();
  });

  it("starts aborted when the caller's signal already is", () => {
    const outer = new AbortController();
    outer.abort("gone");
    const d = linkedDeadline(outer.signal, 10_000);
    expect(d.signal.aborted).toBe(true);
    expect(d.signal.reason).toBe("gone");
    d.release();
  });

  it("after release, neither the timer nor the caller aborts it", async () => {
    const outer = new AbortController();
    const d = linkedDeadline(outer.signal, 20);
    d.release();
    await tick(60);
    outer.abort();
    expect(d.signal.aborted).toBe(false);
    expect(d.expired()).toBe(false);
  });
});
