/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native/wasm database packages must be loaded by Node at run time, not bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "@prisma/driver-adapter-utils",
    "@prisma/schema-engine-wasm",
    "pg",
    // Document parsers. They run in worker processes (lib/vector/parse-worker/*.mjs, loaded by
    // Node from disk, never bundled) and must stay plain packages of node_modules.
    "pdf-parse",
    "pdfjs-dist",
    "mammoth",
    "papaparse",
    "@langchain/textsplitters",
    // Queue mode (lib/queue): BullMQ (with its child-process and worker-thread code) loaded by Node, not
    // bundled; a precaution, as bundling it was not tried.
    "bullmq",
    // Traces (lib/telemetry/start.ts): loaded by Node only when an OTLP endpoint is set, one copy
    // for the whole process (the API's global registration is shared by every route).
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/resources",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/exporter-trace-otlp-proto",
    "@prisma/instrumentation",
  ],
  poweredByHeader: false,
  // Next loads every route's code when `next start` begins (its default since 15). Turbopack bundles
  // each route with its own copy of the modules it shares with the others (the node registry and its
  // runtimes), and V8 keeps the source of every script it loaded: most of the heap at rest was source
  // strings. A route is loaded when first asked for instead, a little later for its first request
  // (bench/measured.md, "Routes loaded on demand").
  experimental: { preloadEntriesOnStart: false },
  // proxy.ts handles trailing slashes: API paths are served as they are (Flowise's clients post to
  // /api/v1/leads/), pages are redirected as Next would.
  skipTrailingSlashRedirect: true,
  reactStrictMode: true,
  // A failing type check belongs to `npm run typecheck`, not to every start.
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
