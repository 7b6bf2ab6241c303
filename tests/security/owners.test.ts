// Issue 10, finding 3 (no isolation between users), one test per attack that worked before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import { databaseHasPgvector } from "../support/pgvector";
import { exampleFlow } from "../../dev/flows";
import type { ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";
import { graphUsing } from "../support/permission-probes";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as credentialById from "../../app/api/v1/credentials/[id]/route";
import * as apikeys from "../../app/api/v1/apikey/route";
import * as apikeyById from "../../app/api/v1/apikey/[id]/route";
import * as userById from "../../app/api/v1/users/[id]/route";
import * as messages from "../../app/api/v1/chatmessage/[id]/route";
import * as analyze from "../../app/api/v1/domains/analyze/route";
import * as publicConfig from "../../app/api/v1/public-chatbotConfig/[id]/route";
import * as streaming from "../../app/api/v1/chatflows-streaming/[id]/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { multiStoreGraph } from "../support/docs-flows";
import { getDb } from "../../lib/db/client";
import { createUser, setupFirstAdmin } from "../../lib/services/users";

const PASSWORD = "owners-password-1";
let admin: Record<string, string>;
let builder: Record<string, string>;
let adminId: string;
let builderId: string;
let stub: ModelStub;

beforeAll(async () => {
  stub = await startServerModelStub();
  adminId = (await setupFirstAdmin({ email: "admin@owners.test", name: "Ada", password: PASSWORD })).id;
  builderId = (await createUser({ email: "builder@owners.test", name: "Bob", password: PASSWORD, role: "builder" })).id;
  admin = await auth.session(adminId);
  builder = await auth.session(builderId);
});
afterAll(() => stub.close());

const newFlow = async (headers: Record<string, string>, body: object = {}) => {
  const res = await call(chatflows.POST, {
    method: "POST",
    headers,
    body: { name: "flow", graph: exampleFlow("conversation.json").graph, ...body },
  });
  expect(res.status).toBe(201);
  return res.json as { id: string; ownerId: string };
};
const newCredential = async (headers: Record<string, string>) => {
  const res = await call(credentials.POST, {
    method: "POST",
    headers,
    body: { name: "cred", type: "openai", data: { apiKey: "sk-secret" } },
  });
  expect(res.status).toBe(201);
  return res.json as { id: string };
};
const newKey = async (headers: Record<string, string>, body: object) =>
  call(apikeys.POST, { method: "POST", headers, body: { name: "k", ...body } });
const flowRow = (id: string) => getDb().then((db) => db.chatflow.findUnique({ where: { id } }));

describe("a builder and an admin's objects", () => {
  it("cannot read, change, publish or delete an admin's chatflow (404, nothing changes), nor list it", async () => {
    const flow = await newFlow(admin);
    expect(flow.ownerId).toBe(adminId);
    expect((await call(chatflowById.GET, { params: { id: flow.id }, headers: builder })).status).toBe(404);
    expect(
      (
        await call(chatflowById.PUT, {
          method: "PUT",
          params: { id: flow.id },
          headers: builder,
          body: { isPublic: true, name: "mine" },
        })
      ).status,
    ).toBe(404);
    expect(
      (await call(chatflowById.DELETE, { method: "DELETE", params: { id: flow.id }, headers: builder })).status,
    ).toBe(404);
    expect(await flowRow(flow.id)).toMatchObject({ isPublic: false, name: "flow", version: 1 });
    const listed = (await call(chatflows.GET, { headers: builder })).json.map((f: { id: string }) => f.id);
    expect(listed).not.toContain(flow.id);
    expect(
      (await call(chatflows.GET, { headers: admin })).json.find((f: { id: string }) => f.id === flow.id).owner.name,
    ).toBe("Ada");
  });

  it("cannot replace an admin's credential; may use one shared with all builders, never edit it", async () => {
    const cred = await newCredential(admin);
    const replace = { data: { apiKey: "sk-attacker", baseURL: "http://attacker.example" } };
    expect(
      (await call(credentialById.PUT, { method: "PUT", params: { id: cred.id }, headers: builder, body: replace }))
        .status,
    ).toBe(404);
    const refused = await newFlowRaw(builder, graphUsing(cred.id));
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain("model_0");
    expect(refused.json.error.message).toContain(cred.id);
    // A builder cannot share it, an admin can.
    expect(
      (
        await call(credentialById.PUT, {
          method: "PUT",
          params: { id: cred.id },
          headers: builder,
          body: { sharedWithBuilders: true },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(credentialById.PUT, {
          method: "PUT",
          params: { id: cred.id },
          headers: admin,
          body: { sharedWithBuilders: true },
        })
      ).status,
    ).toBe(200);
    expect((await newFlowRaw(builder, graphUsing(cred.id))).status).toBe(201);
    expect((await call(credentials.GET, { headers: builder })).json.map((c: { id: string }) => c.id)).toContain(
      cred.id,
    );
    expect(
      (await call(credentialById.PUT, { method: "PUT", params: { id: cred.id }, headers: builder, body: replace }))
        .status,
    ).toBe(403);
    expect(
      (await call(credentialById.DELETE, { method: "DELETE", params: { id: cred.id }, headers: builder })).status,
    ).toBe(403);
    const row = await (await getDb()).credential.findUniqueOrThrow({ where: { id: cred.id } });
    expect(row.ownerId).toBe(adminId);
  });

  it("a builder's chatflow stops using an admin's credential once it is no longer shared", async () => {
    const created = await call(credentials.POST, {
      method: "POST",
      headers: admin,
      body: { name: "team", type: "openai", data: { apiKey: "sk-team", baseURL: stub.url } },
    });
    const cred = created.json as { id: string };
    await call(credentialById.PUT, {
      method: "PUT",
      params: { id: cred.id },
      headers: admin,
      body: { sharedWithBuilders: true },
    });
    const graph = exampleFlow("conversation.json").graph;
    graph.nodes.find((n) => n.type === "chatOpenAICompatible")!.data.inputs.credential = cred.id;
    const flow = await newFlowRaw(builder, graph);
    expect(flow.status).toBe(201);
    const ask = () =>
      call(prediction.POST, {
        method: "POST",
        params: { id: flow.json.id },
        headers: builder,
        body: { question: "hi" },
      });
    expect((await ask()).status).toBe(200);
    await call(credentialById.PUT, {
      method: "PUT",
      params: { id: cred.id },
      headers: admin,
      body: { sharedWithBuilders: false },
    });
    const refused = await ask();
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain(cred.id);
  });

  it("a builder's upsert stops using an admin's embeddings credential once it is no longer shared", async () => {
    const created = await call(credentials.POST, {
      method: "POST",
      headers: admin,
      body: { name: "team embeddings", type: "openai", data: { apiKey: "sk-team", baseURL: stub.url } },
    });
    const cred = created.json as { id: string };
    await call(credentialById.PUT, {
      method: "PUT",
      params: { id: cred.id },
      headers: admin,
      body: { sharedWithBuilders: true },
    });
    const graph = multiStoreGraph({ chatUrl: stub.url, embeddingsUrl: stub.url });
    graph.nodes.find((n) => n.id === "embeddings")!.data.inputs.credential = cred.id;
    graph.nodes.find((n) => n.id === "textLoader")!.data.inputs.file = "Refunds are paid within 14 days.";
    const flow = await newFlowRaw(builder, graph);
    expect(flow.status).toBe(201);
    const load = () =>
      call(upsert.POST, {
        method: "POST",
        params: { id: flow.json.id },
        headers: builder,
        body: { stopNodeId: "vectorStore" },
      });
    const shared = await load();
    // Built with the shared credential; a PostgreSQL server without pgvector then refuses the write (503 naming it).
    expect(shared.status, JSON.stringify(shared.json)).toBe((await databaseHasPgvector()) ? 200 : 503);
    await call(credentialById.PUT, {
      method: "PUT",
      params: { id: cred.id },
      headers: admin,
      body: { sharedWithBuilders: false },
    });
    const refused = await load();
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain(cred.id);
  });

  it("a builder's chatflow stops transcribing with an admin's credential once it is no longer shared", async () => {
    const created = await call(credentials.POST, {
      method: "POST",
      headers: admin,
      body: { name: "team speech", type: "openai", data: { apiKey: "sk-team", baseURL: stub.url } },
    });
    const cred = created.json as { id: string };
    await call(credentialById.PUT, {
      method: "PUT",
      params: { id: cred.id },
      headers: admin,
      body: { sharedWithBuilders: true },
    });
    const flow = await newFlow(builder, { speechToText: { enabled: true, credentialId: cred.id } });
    const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(128, 3)]).toString("base64");
    const speak = () =>
      call(prediction.POST, {
        method: "POST",
        params: { id: flow.id },
        headers: builder,
        body: {
          uploads: [{ type: "audio", name: "v.webm", mime: "audio/webm", data: `data:audio/webm;base64,${webm}` }],
        },
      });
    const shared = await speak();
    expect(shared.status, JSON.stringify(shared.json)).toBe(200);
    await call(credentialById.PUT, {
      method: "PUT",
      params: { id: cred.id },
      headers: admin,
      body: { sharedWithBuilders: false },
    });
    const refused = await speak();
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain(cred.id);
  });

  it("lists and revokes only their own API keys; others' keys are 404", async () => {
    const adminKey = (await newKey(admin, { permissions: ["predict"] })).json;
    const own = (await newKey(builder, { permissions: ["predict"] })).json;
    const listed = (await call(apikeys.GET, { headers: builder })).json.map((k: { id: string }) => k.id);
    expect(listed).toContain(own.id);
    expect(listed).not.toContain(adminKey.id);
    expect(
      (await call(apikeyById.DELETE, { method: "DELETE", params: { id: adminKey.id }, headers: builder })).status,
    ).toBe(404);
    expect((await call(apikeyById.DELETE, { method: "DELETE", params: { id: own.id }, headers: builder })).status).toBe(
      200,
    );
    expect(
      (await call(apikeys.GET, { headers: admin })).json.find((k: { id: string }) => k.id === adminKey.id).status,
    ).toBe("active");
  });

  it("cannot mint a messages key (400 naming it) nor read conversations (403 Admins only)", async () => {
    const res = await newKey(builder, { permissions: ["predict", "messages"] });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain("messages");
    const flow = await newFlow(builder);
    const read = await call(messages.GET, { params: { id: flow.id }, headers: builder });
    expect(read.status).toBe(403);
    expect(read.json.error.message).toBe("Admins only.");
  });

  it("cannot scope a key to an admin's chatflow (answered like an unknown one)", async () => {
    const flow = await newFlow(admin);
    const res = await newKey(builder, { permissions: ["predict"], chatflowIds: [flow.id] });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain("do not exist");
  });
});

async function newFlowRaw(headers: Record<string, string>, graph: object) {
  return call(chatflows.POST, { method: "POST", headers, body: { name: "uses a credential", graph } });
}

describe("ownership changes", () => {
  it("lets an admin transfer a chatflow or credential; a builder sending ownerId gets 403", async () => {
    const flow = await newFlow(builder);
    expect(
      (
        await call(chatflowById.PUT, {
          method: "PUT",
          params: { id: flow.id },
          headers: builder,
          body: { ownerId: adminId },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(chatflowById.PUT, {
          method: "PUT",
          params: { id: flow.id },
          headers: admin,
          body: { ownerId: adminId },
        })
      ).status,
    ).toBe(200);
    expect((await call(chatflowById.GET, { params: { id: flow.id }, headers: builder })).status).toBe(404);
    const cred = await newCredential(admin);
    expect(
      (
        await call(credentialById.PUT, {
          method: "PUT",
          params: { id: cred.id },
          headers: admin,
          body: { ownerId: builderId },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(credentialById.PUT, {
          method: "PUT",
          params: { id: cred.id },
          headers: builder,
          body: { name: "now mine" },
        })
      ).status,
    ).toBe(200);
    const unknownUser = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: flow.id },
      headers: admin,
      body: { ownerId: "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b" },
    });
    expect(unknownUser.status).toBe(400);
  });

  it("a builder's key follows what the builder owns at request time", async () => {
    const flow = await newFlow(builder);
    const key = (await newKey(builder, { permissions: ["chatflows"] })).json.key;
    expect((await call(chatflowById.GET, { params: { id: flow.id }, headers: auth.bearer(key) })).status).toBe(200);
    await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: flow.id },
      headers: admin,
      body: { ownerId: adminId },
    });
    expect((await call(chatflowById.GET, { params: { id: flow.id }, headers: auth.bearer(key) })).status).toBe(404);
  });

  it("deleting a user hands their chatflows and credentials to the acting admin and kills their keys", async () => {
    const leaverId = (
      await createUser({ email: "leaver@owners.test", name: "Lee", password: PASSWORD, role: "builder" })
    ).id;
    const leaver = await auth.session(leaverId);
    const flow = await newFlow(leaver);
    const cred = await newCredential(leaver);
    const key = (await newKey(leaver, { permissions: ["chatflows"] })).json.key;
    expect((await call(chatflows.GET, { headers: auth.bearer(key) })).status).toBe(200);
    expect((await call(userById.DELETE, { method: "DELETE", params: { id: leaverId }, headers: admin })).status).toBe(
      200,
    );
    expect((await call(chatflows.GET, { headers: auth.bearer(key) })).status).toBe(401);
    expect((await flowRow(flow.id))?.ownerId).toBe(adminId);
    expect((await (await getDb()).credential.findUniqueOrThrow({ where: { id: cred.id } })).ownerId).toBe(adminId);
    expect(await (await getDb()).apiKey.count({ where: { createdById: leaverId } })).toBe(0);
  });

  it("a demoted admin's keys lose what builders may not do, at once", async () => {
    const formerId = (await createUser({ email: "former@owners.test", name: "Fay", password: PASSWORD, role: "admin" }))
      .id;
    const former = await auth.session(formerId);
    const adminFlow = await newFlow(admin);
    const ownFlow = await newFlow(former);
    const msgKey = (await newKey(former, { permissions: ["messages"] })).json.key;
    const editKey = (await newKey(former, { permissions: ["chatflows"] })).json.key;
    expect((await call(messages.GET, { params: { id: adminFlow.id }, headers: auth.bearer(msgKey) })).status).toBe(200);
    expect((await call(chatflowById.GET, { params: { id: adminFlow.id }, headers: auth.bearer(editKey) })).status).toBe(
      200,
    );
    expect(
      (await call(userById.PUT, { method: "PUT", params: { id: formerId }, headers: admin, body: { role: "builder" } }))
        .status,
    ).toBe(200);
    expect((await call(messages.GET, { params: { id: adminFlow.id }, headers: auth.bearer(msgKey) })).status).toBe(403);
    expect((await call(chatflowById.GET, { params: { id: adminFlow.id }, headers: auth.bearer(editKey) })).status).toBe(
      404,
    );
    expect((await call(chatflowById.GET, { params: { id: ownFlow.id }, headers: auth.bearer(editKey) })).status).toBe(
      200,
    );
  });
});

describe("key permissions and scope on chatflow-running routes", () => {
  it("domains/analyze needs predict on that chatflow, in scope, owned by a builder key's owner", async () => {
    const adminFlow = await newFlow(admin);
    const body = (chatflowId: string) => ({ chatflowId, filter: { searchTerm: "none-such" } });
    const run = (key: string, chatflowId: string) =>
      call(analyze.POST, { method: "POST", headers: auth.bearer(key), body: body(chatflowId) });
    const domainsOnly = (await newKey(admin, { permissions: ["domains"] })).json.key;
    expect((await run(domainsOnly, adminFlow.id)).status).toBe(403);
    const both = (await newKey(admin, { permissions: ["domains", "predict"] })).json.key;
    expect((await run(both, adminFlow.id)).status).toBe(200);
    const otherFlow = await newFlow(admin);
    const scoped = (await newKey(admin, { permissions: ["domains", "predict"], chatflowIds: [otherFlow.id] })).json.key;
    expect((await run(scoped, adminFlow.id)).status).toBe(403);
    const builders = (await newKey(builder, { permissions: ["domains", "predict"] })).json.key;
    expect((await run(builders, adminFlow.id)).status).toBe(404);
  });

  it("a key scoped to chatflow A gets 403 for B's public config and streaming check, even when B is public", async () => {
    const a = await newFlow(admin);
    const b = await newFlow(admin, { isPublic: true });
    const key = (await newKey(admin, { permissions: ["predict"], chatflowIds: [a.id] })).json.key;
    for (const handler of [publicConfig.GET, streaming.GET]) {
      expect((await call(handler, { params: { id: a.id }, headers: auth.bearer(key) })).status).toBe(200);
      expect((await call(handler, { params: { id: b.id }, headers: auth.bearer(key) })).status).toBe(403);
    }
    const predictB = await call(prediction.POST, {
      method: "POST",
      params: { id: b.id },
      headers: auth.bearer(key),
      body: { question: "hi" },
    });
    expect(predictB.status).toBe(403);
  });

  it("a builder cannot run an admin's private chatflow from the studio (404), but can run a public one", async () => {
    const priv = await newFlow(admin);
    const pub = await newFlow(admin, { isPublic: true });
    const ask = (id: string) =>
      call(prediction.POST, { method: "POST", params: { id }, headers: builder, body: { question: "hi" } });
    expect((await ask(priv.id)).status).toBe(404);
    expect((await ask(pub.id)).status).toBe(200);
  });
});
