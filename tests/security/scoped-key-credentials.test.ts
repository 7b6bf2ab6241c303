// Issue 33, sharp edge: a key scoped to one chatflow listed every credential's name, type and owner.
// Now a scoped key sees only the credentials its chatflows use; an unscoped key keeps its owner's view.
import { beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import { graphUsing } from "../support/permission-probes";
import * as credentials from "../../app/api/v1/credentials/route";
import { userCaller } from "../../dev/callers";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { createCredential } from "../../lib/services/credentials";
import { setupFirstAdmin } from "../../lib/services/users";

let used: string;
let unused: string;
let scoped: string;
let unscoped: string;

beforeAll(async () => {
  const admin = userCaller({
    ...(await setupFirstAdmin({ email: "admin@scoped.test", name: "Ada", password: "scoped-password-1" })),
    role: "admin",
  });
  const openai = { apiKey: "sk-not-listed-anywhere" };
  used = (await createCredential({ name: "used by the flow", type: "openai", data: openai }, admin)).id;
  unused = (await createCredential({ name: "someone else's project", type: "openai", data: openai }, admin)).id;
  const flow = await createChatflow({ name: "scoped", graph: graphUsing(used) as never }, admin);
  await createChatflow({ name: "other", graph: graphUsing(unused) as never }, admin);
  scoped = (await createApiKey({ name: "one flow", permissions: ["chatflows"], chatflowIds: [flow.id] }, admin)).key;
  unscoped = (await createApiKey({ name: "all flows", permissions: ["chatflows"], chatflowIds: [] }, admin)).key;
});

const listedIds = async (key: string) => {
  const res = await call(credentials.GET, { headers: auth.bearer(key) });
  expect(res.status).toBe(200);
  return res.json.map((c: { id: string }) => c.id);
};

describe("GET /api/v1/credentials with an API key", () => {
  it("lists only the credentials a scoped key's chatflows use", async () => {
    expect(await listedIds(scoped)).toEqual([used]);
  });

  it("lists the owner's credentials for a key without a scope", async () => {
    expect(await listedIds(unscoped)).toEqual(expect.arrayContaining([used, unused]));
  });
});
