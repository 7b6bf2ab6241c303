// `npm run docs:routes`: writes the index of route modules the OpenAPI document is made from
// (lib/openapi/route-index.ts). lib/openapi/route-index.test.ts fails when it is stale.
import fs from "node:fs";
import path from "node:path";
import { ROUTE_INDEX_FILE, routeFilesUnder, routeIndexSource } from "../lib/openapi/route-index";

const root = path.resolve(import.meta.dirname, "..");
const target = path.join(root, ROUTE_INDEX_FILE);
const before = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : "";
const after = routeIndexSource(routeFilesUnder(root));
if (after === before) console.log(`${ROUTE_INDEX_FILE}: up to date.`);
else {
  fs.writeFileSync(target, after);
  console.log(`${ROUTE_INDEX_FILE}: written.`);
}
