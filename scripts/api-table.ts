// `npm run docs:api-table`: writes the API table of docs/api.md from the routes' own declarations
// (lib/openapi/declared.ts). lib/openapi/api-table.test.ts fails when docs/api.md holds another table.
import fs from "node:fs";
import path from "node:path";
import { DOCUMENTED_ROUTES } from "../app/api/v1/openapi.json/documented-routes";
import { apiTable, withApiTable } from "../lib/openapi/api-table";
import { operationsOf } from "../lib/openapi/declared";

const docPath = path.resolve(import.meta.dirname, "../docs/api.md");
const before = fs.readFileSync(docPath, "utf8");
const after = withApiTable(before, apiTable(operationsOf(DOCUMENTED_ROUTES)));
if (after === before) console.log("docs/api.md: the API table is up to date.");
else {
  fs.writeFileSync(docPath, after);
  console.log("docs/api.md: API table written.");
}
