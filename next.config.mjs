/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native/wasm database packages must be loaded by Node at run time, not bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "@prisma/driver-adapter-utils",
    "@prisma/schema-engine-wasm",
    "pg",
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  // A failing type check belongs to `npm run typecheck`, not to every start.
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
