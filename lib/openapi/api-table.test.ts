import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { manageChatflows, messageAdmins, runChatflow } from "@/common/access/permissions";
import { DOCUMENTED_ROUTES } from "@/app/api/v1/openapi.json/documented-routes";
import { apiTable, callersOf, withApiTable } from "./api-table";
import { operationsOf } from "./declared";

const API_DOC = path.resolve(import.meta.dirname, "../../docs/api.md");
const OPERATIONS = operationsOf(DOCUMENTED_ROUTES);

describe("the API table of docs/api.md", () => {
  it("is the one made from the routes' policies (run `npm run docs:api-table` when this fails)", () => {
    const doc = fs.readFileSync(API_DOC, "utf8");
    expect(doc).toBe(withApiTable(doc, apiTable(OPERATIONS)));
  });

  it("says who may call from the policy itself", () => {
    expect(callersOf("public")).toBe("anyone (no credentials)");
    expect(callersOf(manageChatflows)).toBe("studio session, admin Basic, API key with `chatflows`");
    expect(callersOf(messageAdmins)).toBe(
      "signed-in admin, admin Basic, API key with `messages` whose owner is an admin",
    );
    expect(callersOf(runChatflow)).toBe("studio session, admin Basic, API key with `predict`, anyone");
  });

  it("joins methods of one path with the same callers, and keeps different callers apart", () => {
    const table = apiTable(OPERATIONS);
    expect(table).toContain("| `GET/POST /api/v1/users` |");
    expect(table).toMatch(/\| `GET \/api\/v1\/credentials` \| [^\n]*\n\| `POST \/api\/v1\/credentials` \|/);
  });

  it("refuses a document without the markers", () => {
    expect(() => withApiTable("# no table", "x")).toThrow(/markers/);
  });
});
