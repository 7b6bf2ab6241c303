import { afterEach, describe, expect, it } from "vitest";
import { freePort, startRedisServer } from "./redis-server";

const path = process.env.PATH;
afterEach(() => {
  process.env.PATH = path;
});

describe("startRedisServer", () => {
  it("rejects naming redis-server when it is not on PATH (the spawn error does not crash the process)", async () => {
    process.env.PATH = "/nonexistent";
    await expect(startRedisServer(await freePort())).rejects.toThrow(
      /cannot start redis-server \(is it on PATH\?\).*ENOENT/,
    );
  });
});
