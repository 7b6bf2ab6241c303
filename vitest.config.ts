import path from "node:path";
import { defineConfig } from "vitest/config";

// Vitest 5 formats failures with Map.groupBy (Node 21+); our machines run Node 20.
if (!(Map as { groupBy?: unknown }).groupBy) {
  Object.defineProperty(Map, "groupBy", {
    value<T, K>(items: Iterable<T>, key: (item: T, i: number) => K) {
      const map = new Map<K, T[]>();
      let i = 0;
      for (const item of items) {
        const k = key(item, i++);
        map.set(k, [...(map.get(k) ?? []), item]);
      }
      return map;
    },
  });
}

// Three projects: `unit` (pure code beside its source, and the dev stubs in dev/), `integration` (real route handlers on a
// database: in-memory PGlite by default, the PostgreSQL server when DATABASE_URL says so) and `queue` (queue mode with
// real worker processes, PostgreSQL and a private Redis: tests/queue/setup.ts).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // Vite sets MODE=test in process.env; our MODE (embedded | queue, lib/env.ts) is another setting.
    env: { MODE: "embedded" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "lib/**/*.test.ts",
            "common/**/*.test.ts",
            "browser/**/*.test.ts",
            "scripts/**/*.test.ts",
            "server/**/*.test.ts",
            "dev/**/*.test.ts",
            "widget/**/*.test.ts",
          ],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/**/*.test.ts"],
          exclude: ["tests/queue/**"],
          setupFiles: ["tests/integration/setup.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // Queue mode (MODE=queue): real worker processes, PostgreSQL on 127.0.0.1:5432 (TEST_PG_URL) and a
          // private redis-server per file (redis-server on PATH). Files run one at a time: they spawn processes.
          name: "queue",
          include: ["tests/queue/**/*.test.ts"],
          setupFiles: ["tests/queue/setup.ts"],
          environment: "node",
          env: { MODE: "queue" },
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
