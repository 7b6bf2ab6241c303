// Every chatflow template of Flowise's marketplace sent to the import route as a Flowise user would:
// the 8 kept in the shared fixtures always, all 24 of the flowise@3.1.4 npm package when it is
// unpacked on this machine (tests/support/flowise-marketplace.ts; docs/testing.md). 23 import; OpenAI
// Assistant is refused by name (OpenAI retired the Assistants API). The templates that import run in
// their own tests (flowise-chains, flowise-agents-import, flowise-search-tools, pinecone-store,
// flowise-marketplace-retrieval, …).
import { beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import { getDb } from "../../lib/db/client";
import { setupFirstAdmin } from "../../lib/services/users";
import {
  hasNpmMarketplace,
  npmTemplate,
  npmTemplateNames,
  sharedTemplate,
  sharedTemplateNames,
} from "../support/flowise-marketplace";
import { auth, call } from "../support/http";

let session: Record<string, string>;
beforeAll(async () => {
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});

const importTemplate = (name: string, flow: object) =>
  call(importRoute.POST, { method: "POST", headers: session, body: { name, ...flow } });

/** Imports each template: the names that imported, and the refusals by name (nothing saved for those). */
async function importAll(names: string[], read: (name: string) => object) {
  const imported: string[] = [];
  const refused: Record<string, string> = {};
  for (const name of names) {
    const before = await (await getDb()).chatflow.count();
    const res = await importTemplate(name, read(name));
    expect([201, 400], `${name}: ${res.text.slice(0, 300)}`).toContain(res.status);
    if (res.status === 201) imported.push(name);
    else {
      refused[name] = res.json.error.message;
      expect(await (await getDb()).chatflow.count(), name).toBe(before);
    }
  }
  return { imported, refused };
}

describe("Flowise's marketplace chatflow templates", () => {
  it("the 8 in the shared fixtures all import", async () => {
    const names = sharedTemplateNames();
    expect(names).toHaveLength(8);
    const { imported, refused } = await importAll(names, sharedTemplate);
    expect(refused).toEqual({});
    expect(imported).toEqual(names);
  });

  it.skipIf(!hasNpmMarketplace)(
    "all 24 of the npm package: 23 import, OpenAI Assistant is refused by name (needs the npm package)",
    async () => {
      const names = npmTemplateNames();
      expect(names).toHaveLength(24);
      // The shared fixtures are the package's files under underscored names.
      for (const shared of sharedTemplateNames()) expect(names).toContain(shared.replaceAll("_", " "));
      const { imported, refused } = await importAll(names, npmTemplate);
      expect(Object.keys(refused)).toEqual(["OpenAI Assistant"]);
      expect(refused["OpenAI Assistant"]).toMatch(/openAIAssistant.*Assistants API.*retired.*Tool Agent/);
      expect(imported).toHaveLength(23);
    },
  );
});
