import path from "node:path";
import { defineConfig } from "vitest/config";

// Two projects: `unit` (pure code beside its source) and `integration` (real route handlers on a
// database: in-memory PGlite by default, the PostgreSQL server when DATABASE_URL says so).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["lib/**/*.test.ts", "scripts/**/*.test.ts"], environment: "node" },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
