import fs from "node:fs";
import path from "node:path";

/**
 * The index of route modules the OpenAPI document is made from. Next bundles each route on its own,
 * so GET /api/v1/openapi.json must import every route module statically: `npm run docs:routes`
 * (scripts/route-index.ts) writes ROUTE_INDEX_FILE from the route files under app/, and
 * lib/openapi/route-index.test.ts fails when it is stale.
 */
export const ROUTE_INDEX_FILE = "app/api/v1/openapi.json/routes.generated.ts";

/** The document's own route: it imports the index, so the index leaves it out and it adds itself. */
export const OPENAPI_ROUTE_FILE = "app/api/v1/openapi.json/route.ts";

/** Route files under app/ that are not in the index, each with why. */
export const NOT_INDEXED: Record<string, string> = {
  "app/api/auth/[...nextauth]/route.ts": "next-auth's sign-in endpoints for the studio (not an API)",
  "app/api/[...path]/route.ts": "the catch-all answering unknown /api paths with 404 in the error shape",
  "app/swagger-ui/[file]/route.ts": "Swagger UI's script and stylesheet for the API reference page (not an API)",
  [OPENAPI_ROUTE_FILE]: "the document's own route: it imports the index and adds itself (no import cycle)",
};

/** Every route.ts under app/, relative to `root`, sorted. */
export function routeFilesUnder(root: string): string[] {
  return (fs.readdirSync(path.join(root, "app"), { recursive: true }) as string[])
    .filter((f) => path.basename(f) === "route.ts")
    .map((f) => path.posix.join("app", f.split(path.sep).join("/")))
    .sort();
}

/** The source of the index for these route files (those in NOT_INDEXED left out). */
export function routeIndexSource(files: readonly string[]): string {
  const indexed = files.filter((f) => !(f in NOT_INDEXED));
  const from = path.posix.dirname(ROUTE_INDEX_FILE);
  const lines = [
    "// Written by `npm run docs:routes` (scripts/route-index.ts) from the route files under app/; do not edit.",
    "// GET /api/v1/openapi.json makes the document from these modules (lib/openapi/route-index.ts says why).",
    'import type { RouteFile } from "@/lib/openapi/declared";',
    ...indexed.map((f, i) => `import * as route${i} from "${relative(from, f)}";`),
    "",
    "/** Every documented route module but the document's own. */",
    "export const ROUTE_FILES: readonly RouteFile[] = [",
    ...indexed.map((f, i) => `  { file: "${f}", module: route${i} },`),
    "];",
    "",
  ];
  return lines.join("\n");
}

function relative(from: string, file: string): string {
  const rel = path.posix.relative(from, file.replace(/\.ts$/, ""));
  return rel.startsWith(".") ? rel : `./${rel}`;
}
