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

describe("MODE=queue", () => {
  const keys = ["MODE", "REDIS_URL", "DATABASE_URL"] as const;
  const saved = Object.fromEntries(keys.map((k) => [k, process.env[k]]));
  const withEnv = (values: Partial<Record<(typeof keys)[number], string>>) => {
    for (const k of keys) delete process.env[k];
    Object.assign(process.env, values);
    resetEnvForTests();
    try {
      return getEnv();
    } finally {
      for (const k of keys) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
      resetEnvForTests();
    }
  };

  it("defaults to embedded mode", () => {
    expect(withEnv({}).MODE).toBe("embedded");
  });

  it("runs with PostgreSQL and Redis", () => {
    const env = withEnv({ MODE: "queue", REDIS_URL: "redis://127.0.0.1:6379", DATABASE_URL: "postgresql://x@h/db" });
    expect(env.MODE).toBe("queue");
    expect(env.JOB_TIMEOUT_MS).toBeGreaterThan(0);
    expect(env.WORKER_CONCURRENCY).toBe(4);
  });

  it("refuses a missing REDIS_URL in one line naming it", () => {
    expect(() => withEnv({ MODE: "queue", DATABASE_URL: "postgresql://x@h/db" })).toThrow(
      /^Invalid configuration:\n {2}REDIS_URL: MODE=queue needs REDIS_URL[^\n]*$/,
    );
  });

  it("refuses PGlite (explicit or by default) in one line naming DATABASE_URL", () => {
    for (const db of ["pglite:./data/db", undefined]) {
      expect(() =>
        withEnv({ MODE: "queue", REDIS_URL: "redis://127.0.0.1:6379", ...(db ? { DATABASE_URL: db } : {}) }),
      ).toThrow(/^Invalid configuration:\n {2}DATABASE_URL: MODE=queue needs DATABASE_URL=postgresql:[^\n]*$/);
    }
  });

  it("refuses an unknown mode", () => {
    expect(() => withEnv({ MODE: "cluster" })).toThrow(/MODE: must be "embedded" or "queue"/);
  });
});

describe("PGLITE_SHARED_BUFFERS", () => {
  afterEach(() => {
    delete process.env.PGLITE_SHARED_BUFFERS;
  });
  const withValue = (value: string) => {
    process.env.PGLITE_SHARED_BUFFERS = value;
    resetEnvForTests();
    return getEnv;
  };

  it("defaults to 16MB and takes a PostgreSQL size", () => {
    expect(getEnv().PGLITE_SHARED_BUFFERS).toBe("16MB");
    expect(withValue("512kB")().PGLITE_SHARED_BUFFERS).toBe("512kB");
  });

  it("refuses anything that is not a size, naming the setting", () => {
    for (const v of ["16", "16 MB", "lots", "16MB; DROP"]) {
      expect(withValue(v)).toThrow(/PGLITE_SHARED_BUFFERS: must be a size such as 16MB or 512kB/);
    }
  });
});

describe("the request timeouts and the anonymous body cap", () => {
  it("have the defaults npm start's server uses (server/body-guard.mjs reads them without this module)", async () => {
    const { BODY_GUARD_DEFAULTS } = await import("../server/body-guard.mjs");
    resetEnvForTests();
    const env = getEnv();
    expect({
      headersTimeoutMs: env.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
      bodyIdleTimeoutMs: env.BODY_IDLE_TIMEOUT_MS,
      maxPendingAnonymousBodies: env.MAX_PENDING_ANONYMOUS_BODIES,
    }).toEqual(BODY_GUARD_DEFAULTS);
  });
});
