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
    // Document parsers (pdf.js loads its worker and font data from its own package at run time).
    "pdf-parse",
    "pdfjs-dist",
    "mammoth",
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  // A failing type check belongs to `npm run typecheck`, not to every start.
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
