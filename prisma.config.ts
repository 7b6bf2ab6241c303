import path from "node:path";
import { defineConfig } from "prisma/config";

// `prisma generate` insists on a schema-engine binary it would download; we migrate through
// @prisma/schema-engine-wasm instead (scripts/db.ts), so point it at a stub that explains that.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve("scripts/schema-engine-stub.sh");

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
