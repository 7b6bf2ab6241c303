import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { collectWhenIdle } from "./idle-gc.mjs";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("collectWhenIdle (server/idle-gc.mjs)", () => {
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

describe("collectGarbage (server/idle-gc.mjs)", () => {
  // A fresh node process fills its old space with 1.5M small objects, drops nine in ten of them,
  // then collects: a plain full collection (the control) keeps the pages; collectGarbage empties them.
  const script = `
    import v8 from "node:v8";
    import { collectGarbage } from ${JSON.stringify(path.join(import.meta.dirname, "idle-gc.mjs"))};
    const oldSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "old_space");
    const all = [];
    for (let i = 0; i < 1_500_000; i++) all.push({ a: i, b: "x" + i });
    collectGarbage();
    const kept = all.filter((_, i) => i % 10 === 0);
    all.length = 0;
    if (process.argv[1] === "plain") v8.setFlagsFromString("--expose-gc"), (await import("node:vm")).runInNewContext("gc")();
    else collectGarbage();
    const s = oldSpace();
    console.log(JSON.stringify({ size: s.space_size, used: s.space_used_size, kept: kept.length }));`;
  const run = (mode: string) =>
    JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script, mode], { encoding: "utf8" })) as {
      size: number;
      used: number;
      kept: number;
    };

  it("leaves the old space about the size of what survived", () => {
    const plain = run("plain");
    const compacted = run("compact");
    expect(compacted.kept).toBe(150_000);
    // The control: a plain collection keeps more than twice the pages its survivors need.
    expect(plain.size).toBeGreaterThan(2 * plain.used);
    expect(compacted.size).toBeLessThan(1.3 * compacted.used + 2 * 1024 * 1024);
  }, 60_000);
});
