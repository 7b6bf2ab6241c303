// `npm run docs:api-table`: writes the README's API table from lib/openapi/operations.ts (the routes'
// own policies). lib/openapi/api-table.test.ts fails when README.md holds another table.
import fs from "node:fs";
import path from "node:path";
import { apiTable, withApiTable } from "../lib/openapi/api-table";
import { OPERATIONS } from "../lib/openapi/operations";

const readmePath = path.resolve(import.meta.dirname, "../README.md");
const before = fs.readFileSync(readmePath, "utf8");
const after = withApiTable(before, apiTable(OPERATIONS));
if (after === before) console.log("README.md: the API table is up to date.");
else {
  fs.writeFileSync(readmePath, after);
  console.log("README.md: API table written.");
}
