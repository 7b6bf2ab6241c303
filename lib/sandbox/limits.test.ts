import { afterEach, describe, expect, it } from "vitest";
import { getEnv, resetEnvForTests } from "../env";
import { SANDBOX_CONSOLE_BYTES, sandboxLimits } from "./index";

const KEYS = ["SANDBOX_TIMEOUT_MS", "SANDBOX_MEMORY_MB", "SANDBOX_MAX_RESULT_BYTES", "SANDBOX_WORKERS"] as const;

afterEach(() => {
  for (const key of KEYS) delete process.env[key];
  resetEnvForTests();
});

function withEnv(values: Partial<Record<(typeof KEYS)[number], string>>) {
  Object.assign(process.env, values);
  resetEnvForTests();
}

describe("the sandbox's settings", () => {
  it("default to 10 s, 64 MB and 1 MiB per run, on at most 4 workers (docs/configuration.md)", () => {
    expect(sandboxLimits()).toEqual({
      timeoutMs: 10_000,
      memoryMb: 64,
      maxResultBytes: 1024 * 1024,
      maxConsoleBytes: SANDBOX_CONSOLE_BYTES,
    });
    expect(getEnv().SANDBOX_WORKERS).toBeGreaterThanOrEqual(1);
    expect(getEnv().SANDBOX_WORKERS).toBeLessThanOrEqual(4);
  });

  it("take the operator's values", () => {
    withEnv({ SANDBOX_TIMEOUT_MS: "2500", SANDBOX_MEMORY_MB: "128", SANDBOX_MAX_RESULT_BYTES: "4096" });
    expect(sandboxLimits()).toMatchObject({ timeoutMs: 2500, memoryMb: 128, maxResultBytes: 4096 });
  });

  it("refuse a value out of range in one line naming the setting", () => {
    for (const [key, value] of [
      ["SANDBOX_TIMEOUT_MS", "5"],
      ["SANDBOX_MEMORY_MB", "4096"],
      ["SANDBOX_MAX_RESULT_BYTES", "lots"],
      ["SANDBOX_WORKERS", "0"],
    ] as const) {
      withEnv({ [key]: value });
      expect(getEnv, key).toThrow(new RegExp(`^Invalid configuration:\\n {2}${key}: `));
      delete process.env[key];
    }
  });
});
