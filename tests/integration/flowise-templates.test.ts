import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { validateGraph } from "../../lib/flow";
import { resetEnvForTests } from "../../lib/env";
import { readFlowiseTemplates } from "../../lib/services/examples";
import { setupFirstAdmin } from "../../lib/services/users";

// Issue 14: the templates gallery offers Flowise templates shipped in flows/flowise (Flowise's export
// format); using one runs the real Flowise import. Each must import without refusal and answer.
let session: Record<string, string>;
let stub: ModelStub;

beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});
afterAll(() => stub.close());

describe("Flowise templates of the gallery", () => {
  const templates = readFlowiseTemplates();

  it("are shipped, each named and described", () => {
    expect(templates.map((t) => t.file)).toContain("flowise/translator.json");
    for (const t of templates) {
      expect(t.name).not.toBe("");
      expect(t.description.length).toBeGreaterThan(20);
    }
  });

  for (const t of templates) {
    it(`${t.file} imports through the Flowise import into a valid chatflow`, async () => {
      const res = await call(importRoute.POST, {
        method: "POST",
        headers: session,
        body: { name: t.name, description: t.description, ...t.flowise },
      });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      expect(res.json.name).toBe(t.name);
      expect(() => validateGraph(res.json.graph)).not.toThrow();
    });
  }

  it("the Translator answers through its prompt: fixed languages filled in, the question as the text", async () => {
    const t = templates.find((x) => x.file === "flowise/translator.json")!;
    const imported = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: { name: t.name, ...t.flowise },
    });
    expect(imported.status).toBe(201);
    stub.requests.length = 0;
    const res = await call(prediction.POST, {
      method: "POST",
      headers: session,
      params: { id: imported.json.id },
      body: { question: "Good morning, how are you?" },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(typeof res.json.text).toBe("string");
    const sent = JSON.stringify(stub.requests.at(-1)?.body);
    expect(sent).toContain("You translate English into French");
    expect(sent).toContain("Good morning, how are you?");
  });
});
