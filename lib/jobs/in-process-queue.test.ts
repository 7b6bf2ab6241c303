import { describe, expect, it } from "vitest";
import { createInProcessQueue } from "./in-process-queue";

describe("in-process job queue", () => {
  it("never runs more jobs at once than its concurrency, and runs them all", async () => {
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    const queue = createInProcessQueue<number>({
      name: "t",
      concurrency: 3,
      handler: async (n) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setImmediate(r));
        done.push(n);
        running--;
      },
    });
    await queue.add(Array.from({ length: 20 }, (_, i) => i));
    await queue.drained();
    expect(peak).toBe(3);
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(queue.counts()).toEqual({ waiting: 0, delayed: 0, active: 0, completed: 20, failed: 0 });
  });

  it("retries retryable errors up to the attempt limit, then reports the failure once", async () => {
    const tries: Record<string, number> = {};
    const failed: string[] = [];
    const queue = createInProcessQueue<string>({
      name: "t",
      attempts: 3,
      backoffMs: 0,
      handler: async (job, ctx) => {
        tries[job] = ctx.attempt;
        if (job === "flaky" && ctx.attempt < 2) throw new Error("503");
        if (job === "broken") throw new Error("503");
        if (job === "fatal") throw new Error("400");
      },
      isRetryable: (e) => (e as Error).message === "503",
      onFailed: async (job) => {
        failed.push(job);
      },
    });
    await queue.add(["flaky", "broken", "fatal", "fine"]);
    await queue.drained();
    expect(tries).toEqual({ flaky: 2, broken: 3, fatal: 1, fine: 1 });
    expect(failed.sort()).toEqual(["broken", "fatal"]);
    // Counted per job, not per attempt: the retries of "flaky" and "broken" are one job each.
    expect(queue.counts()).toMatchObject({ completed: 2, failed: 2 });
  });

  it("drained resolves at once when idle", async () => {
    const queue = createInProcessQueue<number>({ name: "t", handler: async () => {} });
    await expect(queue.drained()).resolves.toBeUndefined();
  });
});
