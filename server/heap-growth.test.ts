import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_HEAP_GROWING_PERCENT, heapGrowingPercent } from "./heap-growth.mjs";

const root = path.resolve(import.meta.dirname, "..");

describe("HEAP_GROWING_PERCENT", () => {
  it("defaults to 100 when unset or empty; 0 keeps V8's own choice; whole numbers up to 1000", () => {
    expect(DEFAULT_HEAP_GROWING_PERCENT).toBe(100);
    expect(heapGrowingPercent(undefined)).toBe(100);
    expect(heapGrowingPercent("  ")).toBe(100);
    expect(heapGrowingPercent("0")).toBe(0);
    expect(heapGrowingPercent(" 60 ")).toBe(60);
    expect(heapGrowingPercent("1000")).toBe(1000);
  });

  it.each(["-5", "1.5", "abc", "1001", "1e3", "0x10"])("refuses %j, naming the setting and its range", (value) => {
    expect(() => heapGrowingPercent(value)).toThrow(/HEAP_GROWING_PERCENT must be a whole number from 0 .* to 1000/);
  });

  it("npm start refuses a bad value before doing anything else", () => {
    const res = spawnSync(process.execPath, ["server/start.mjs", "--no-build"], {
      cwd: root,
      env: { ...process.env, HEAP_GROWING_PERCENT: "lots", PORT: "0", DATABASE_URL: "pglite:memory://" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain("[switchyard] cannot start: HEAP_GROWING_PERCENT must be a whole number");
  });
});
