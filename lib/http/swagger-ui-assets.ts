import fs from "node:fs";
import path from "node:path";

/**
 * Swagger UI (the swagger-ui-dist package) for the studio's API reference: the two files the page
 * loads, served from our own origin by app/swagger-ui/[file]/route.ts straight out of node_modules
 * (no CDN, no copy to keep in step with the package).
 */
export const SWAGGER_UI_FILES: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
};

const packageDir = () => path.join(process.cwd(), "node_modules", "swagger-ui-dist");

/** The installed version: the pages put it in the files' URLs, so they can be cached for a year. */
let version: string | undefined;
export function swaggerUiVersion(): string {
  version ??= (JSON.parse(fs.readFileSync(path.join(packageDir(), "package.json"), "utf8")) as { version: string })
    .version;
  return version;
}

/** One of SWAGGER_UI_FILES, or null for any other name (never a path: names are looked up, not joined blindly). */
export async function readSwaggerUiFile(name: string): Promise<{ body: Uint8Array<ArrayBuffer>; type: string } | null> {
  const type = Object.hasOwn(SWAGGER_UI_FILES, name) ? SWAGGER_UI_FILES[name] : undefined;
  if (!type) return null;
  return { body: new Uint8Array(await fs.promises.readFile(path.join(packageDir(), name))), type };
}
