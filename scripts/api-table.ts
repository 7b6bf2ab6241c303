// `npm run docs:api-table`: writes the API table of docs/api.md from lib/openapi/operations.ts (the
// routes' own policies). lib/openapi/api-table.test.ts fails when docs/api.md holds another table.
import fs from "node:fs";
import path from "node:path";
import { apiTable, withApiTable } from "../lib/openapi/api-table";
import { OPERATIONS } from "../lib/openapi/operations";

const docPath = path.resolve(import.meta.dirname, "../docs/api.md");
const before = fs.readFileSync(docPath, "utf8");
const after = withApiTable(before, apiTable(OPERATIONS));
if (after === before) console.log("docs/api.md: the API table is up to date.");
else {
  fs.writeFileSync(docPath, after);
  console.log("docs/api.md: API table written.");
}
