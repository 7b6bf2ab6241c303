// `npm run docs:nodes`: writes docs/node-catalogue.md from the node registry and the Flowise mappings
// (lib/nodes/catalogue.ts). lib/nodes/catalogue.test.ts fails when it is stale.
import fs from "node:fs";
import path from "node:path";
import { NODE_CATALOGUE_FILE, nodeCatalogueMarkdown } from "../lib/nodes/catalogue";

const target = path.resolve(import.meta.dirname, "..", NODE_CATALOGUE_FILE);
const before = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : "";
const after = nodeCatalogueMarkdown();
if (after === before) console.log(`${NODE_CATALOGUE_FILE}: up to date.`);
else {
  fs.writeFileSync(target, after);
  console.log(`${NODE_CATALOGUE_FILE}: written.`);
}
