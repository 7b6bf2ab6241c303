import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as credentialTest from "../../app/api/v1/credentials/[id]/test/route";
import { systemCaller } from "../../dev/callers";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createPineconeStub, type PineconeStub } from "../../dev/pinecone-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { createCredential } from "../../lib/services/credentials";
import { createUser, setupFirstAdmin } from "../../lib/services/users";
import { auth, call } from "../support/http";

// "Test connection": one free call with the key to the credential's own host, through the guard.
let stub: ModelStub;
let pinecone: PineconeStub;
let admin: Record<string, string>;
let builder: Record<string, string>;

beforeAll(async () => {
  stub = await createModelStub({ apiKey: "right-key" });
  pinecone = await createPineconeStub({ apiKey: "pc-key", indexes: { docs: 8 } });
  Object.assign(process.env, { OUTBOUND_ALLOW_HOSTS: `${new URL(stub.url).host},${new URL(pinecone.url).host}` });
  resetEnvForTests();
  const owner = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  admin = await auth.session(owner.id);
  const other = await createUser({ email: "b@example.com", name: "B", password: "builder-pass-1", role: "builder" });
  builder = await auth.session(other.id);
});
afterAll(async () => {
  await stub.close();
  await pinecone.close();
});

const credential = async (type: string, data: Record<string, unknown>) =>
  (await createCredential({ name: `${type} key`, type: type as never, data }, systemCaller)).id;
const test = (id: string, headers = admin) => call(credentialTest.POST, { method: "POST", params: { id }, headers });

describe("POST /api/v1/credentials/{id}/test", () => {
  it("an accepted key: ok, naming the host", async () => {
    const res = await test(await credential("openai", { apiKey: "right-key", baseURL: stub.url }));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      ok: true,
      host: new URL(stub.url).host,
      status: 200,
      message: `${new URL(stub.url).host} accepted the credential.`,
    });
    expect(stub.requests.length).toBe(0); // GET /v1/models is not a model call: nothing recorded, nothing billed
  });

  it("a refused key: not ok, with the provider's status, never the key", async () => {
    const res = await test(await credential("groq", { apiKey: "wrong-key-123", baseURL: stub.url }));
    expect(res.json).toMatchObject({
      ok: false,
      status: 401,
      message: expect.stringContaining("refused the credential"),
    });
    expect(res.text).not.toContain("wrong-key-123");
  });

  it("Pinecone: lists the indexes with its Api-Key header", async () => {
    const ok = await test(await credential("pinecone", { apiKey: "pc-key", baseURL: pinecone.url }));
    expect(ok.json.ok).toBe(true);
    expect(pinecone.requests.at(-1)).toMatchObject({ method: "GET", path: "/indexes" });
    const bad = await test(await credential("pinecone", { apiKey: "nope", baseURL: pinecone.url }));
    expect(bad.json).toMatchObject({ ok: false, status: 401 });
  });

  it("a server that is down or private without the operator's leave: not ok, said why", async () => {
    const res = await test(await credential("openai", { apiKey: "k", baseURL: "http://127.0.0.1:1/v1" }));
    expect(res.json.ok).toBe(false);
    expect(res.json.message).toMatch(/127\.0\.0\.1:1/);
  });

  it("kinds without a free call say so; another user's credential is 404", async () => {
    const serper = await test(await credential("serper", { apiKey: "s" }));
    expect(serper.json).toEqual({ ok: false, message: expect.stringContaining("no free call") });
    const adminsOwn = await credential("openai", { apiKey: "right-key", baseURL: stub.url });
    expect((await test(adminsOwn, builder)).status).toBe(404);
  });
});
