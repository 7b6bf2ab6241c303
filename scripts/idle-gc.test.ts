import { describe, expect, it } from "vitest";
import { collectWhenIdle } from "./idle-gc.mjs";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("collectWhenIdle (scripts/idle-gc.mjs)", () => {
  it("asks once, `ms` after the last touch of a burst, and again after the next burst", async () => {
    let asked = 0;
    // idle() answering false: nothing is collected, only the asking is counted.
    const touch = collectWhenIdle(() => {
      asked++;
      return false;
    }, 60);
    for (let i = 0; i < 30; i++) {
      touch();
      await sleep(5);
    }
    expect(asked).toBe(0);
    await sleep(150);
    expect(asked).toBe(1);
    touch();
    await sleep(150);
    expect(asked).toBe(2);
  });
});
