import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NOT_INDEXED, ROUTE_INDEX_FILE, routeFilesUnder, routeIndexSource } from "./route-index";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the index of route modules", () => {
  it("lists every route file under app/ (run `npm run docs:routes` when this fails)", () => {
    const written = fs.readFileSync(path.join(ROOT, ROUTE_INDEX_FILE), "utf8");
    expect(written).toBe(routeIndexSource(routeFilesUnder(ROOT)));
  });

  it("leaves out only route files that exist, each with a reason", () => {
    const files = routeFilesUnder(ROOT);
    for (const [file, why] of Object.entries(NOT_INDEXED)) {
      expect(files, file).toContain(file);
      expect(why.length).toBeGreaterThan(10);
    }
  });

  it("imports each module by its path from the index's folder", () => {
    const source = routeIndexSource(["app/api/v1/ping/route.ts", "app/domains/route.ts", "app/api/[...path]/route.ts"]);
    expect(source).toContain('import * as route0 from "../ping/route";');
    expect(source).toContain('import * as route1 from "../../../domains/route";');
    expect(source).toContain('{ file: "app/domains/route.ts", module: route1 },');
    expect(source).not.toContain("[...path]");
  });
});
