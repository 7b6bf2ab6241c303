import { afterEach, describe, expect, it } from "vitest";
import { getEnv, resetEnvForTests } from "./env";

afterEach(() => {
  delete process.env.REDIS_URL;
  resetEnvForTests();
});

function withRedisUrl(value: string) {
  process.env.REDIS_URL = value;
  resetEnvForTests();
  return getEnv;
}

describe("REDIS_URL", () => {
  it("is optional", () => {
    expect(getEnv().REDIS_URL).toBeUndefined();
  });

  it("accepts redis:// and rediss:// URLs", () => {
    for (const url of [
      "redis://127.0.0.1:6379",
      "rediss://user:secret@redis.example.com:6380/2",
      "redis://[::1]:6379",
    ]) {
      expect(withRedisUrl(url)().REDIS_URL).toBe(url);
    }
  });

  it("refuses anything else with one clear line", () => {
    for (const url of ["http://127.0.0.1:6379", "127.0.0.1:6379", "redis://", "redis:/host"]) {
      expect(withRedisUrl(url)).toThrow(/REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/);
    }
  });
});
