// Issue 11, point 3: shared state is invalidated by events, not by restarts or TTLs. Every change
// here is followed by a prediction through the real route right away (well inside every TTL).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { textOf, type ChatMessage } from "../../dev/model-stub/brain";
import type { ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as credentialById from "../../app/api/v1/credentials/[id]/route";
import * as apikeys from "../../app/api/v1/apikey/route";
import * as apikeyById from "../../app/api/v1/apikey/[id]/route";
import * as userById from "../../app/api/v1/users/[id]/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { createUser, setupFirstAdmin } from "../../lib/services/users";

let stub: ModelStub;
let admin: Record<string, string>;
let key: string;

const systemPrompt = (messages: ChatMessage[]) => textOf(messages.find((m) => m.role === "system")?.content);
const completions = () => stub.requests.filter((r) => r.path === "/v1/chat/completions");

beforeAll(async () => {
  // The server's own key must never be what the stub sees when a node has a credential.
  stub = await startServerModelStub({ OPENAI_API_KEY: "server-key" });
  stub.setBrain((req) => ({ content: `system said: ${systemPrompt(req.messages)}` }));
  admin = await auth.session(
    (await setupFirstAdmin({ email: "admin@state.test", name: "Ada", password: "state-password-1" })).id,
  );
  const created = await call(apikeys.POST, {
    method: "POST",
    headers: admin,
    body: { name: "predict", permissions: ["predict"], chatflowIds: [] },
  });
  expect(created.status).toBe(201);
  key = created.json.key;
});
afterAll(() => stub.close());

async function createCredential(headers: Record<string, string>, apiKey: string) {
  const res = await call(credentials.POST, {
    method: "POST",
    headers,
    body: { name: `model ${apiKey}`, type: "openai", data: { apiKey, baseURL: stub.url } },
  });
  expect(res.status).toBe(201);
  return res.json.id as string;
}

const share = (credentialId: string, sharedWithBuilders: boolean) =>
  call(credentialById.PUT, {
    method: "PUT",
    params: { id: credentialId },
    headers: admin,
    body: { sharedWithBuilders },
  });

/** A conversation chatflow whose model uses `credentialId` (none: the server's key). */
async function createFlow(
  headers: Record<string, string>,
  credentialId?: string,
  systemMessage = "You are a helpful assistant.",
) {
  const graph = exampleFlow("conversation.json").graph;
  if (credentialId) graph.nodes.find((n) => n.type === "chatOpenAICompatible")!.data.inputs.credential = credentialId;
  graph.nodes.find((n) => n.type === "conversationChain")!.data.inputs.systemMessage = systemMessage;
  const res = await call(chatflows.POST, { method: "POST", headers, body: { name: "state", graph } });
  expect(res.status).toBe(201);
  return res.json as { id: string; graph: typeof graph };
}

const ask = (chatflowId: string, headers: Record<string, string> = auth.bearer(key)) =>
  call(prediction.POST, { method: "POST", params: { id: chatflowId }, headers, body: { question: "hello" } });

describe("credential changes reach the next prediction", () => {
  it("uses a rotated key at once, and refuses a deleted credential with 422 invalid_graph naming it", async () => {
    const credentialId = await createCredential(admin, "sk-old");
    const flow = await createFlow(admin, credentialId);
    const bystander = await createFlow(admin);
    expect((await ask(flow.id)).status).toBe(200);
    expect((await ask(bystander.id)).status).toBe(200);
    expect(completions().at(-2)?.authorization).toBe("Bearer sk-old");

    const rotate = await call(credentialById.PUT, {
      method: "PUT",
      params: { id: credentialId },
      headers: admin,
      body: { data: { apiKey: "sk-new", baseURL: stub.url } },
    });
    expect(rotate.status).toBe(200);
    expect((await ask(flow.id)).status).toBe(200);
    expect(completions().at(-1)?.authorization).toBe("Bearer sk-new");

    expect(
      (await call(credentialById.DELETE, { method: "DELETE", params: { id: credentialId }, headers: admin })).status,
    ).toBe(200);
    const calls = stub.requests.length;
    const refused = await ask(flow.id);
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe("invalid_graph");
    expect(refused.json.error.message).toContain(`Credential ${credentialId} does not exist`);
    expect(stub.requests.length).toBe(calls);
    // A chatflow that never used the credential keeps answering.
    expect((await ask(bystander.id)).status).toBe(200);
    expect(completions().at(-1)?.authorization).toBe("Bearer server-key");
  });

  it("refuses a builder's chatflow at once when an admin stops sharing the credential it uses", async () => {
    const builder = await createUser({
      email: "bob@state.test",
      name: "Bob",
      password: "builder-password-1",
      role: "builder",
    });
    const builderSession = await auth.session(builder.id);
    const credentialId = await createCredential(admin, "sk-shared");
    expect((await share(credentialId, true)).status).toBe(200);
    const flow = await createFlow(builderSession, credentialId);
    expect((await ask(flow.id, builderSession)).status).toBe(200);
    expect((await share(credentialId, false)).status).toBe(200);
    const refused = await ask(flow.id, builderSession);
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain(`Credential ${credentialId} may not be used`);
  });
});

describe("owner changes reach the next prediction", () => {
  it("a demoted admin's chatflow stops using another user's credential at once", async () => {
    const other = await createUser({
      email: "eve@state.test",
      name: "Eve",
      password: "admin-password-1",
      role: "admin",
    });
    const credentialId = await createCredential(admin, "sk-ada-only");
    const flow = await createFlow(await auth.session(other.id), credentialId);
    expect((await ask(flow.id, admin)).status).toBe(200);
    expect(completions().at(-1)?.authorization).toBe("Bearer sk-ada-only");

    const demote = await call(userById.PUT, {
      method: "PUT",
      params: { id: other.id },
      headers: admin,
      body: { role: "builder" },
    });
    expect(demote.status).toBe(200);
    const calls = stub.requests.length;
    const refused = await ask(flow.id, admin);
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain(`Credential ${credentialId} may not be used`);
    expect(stub.requests.length).toBe(calls);
  });
});

describe("chatflow saves reach the next prediction", () => {
  it("answers with the new prompt right after a save", async () => {
    const flow = await createFlow(admin, undefined, "Answer like a pirate.");
    expect((await ask(flow.id)).json.text).toBe("system said: Answer like a pirate.");
    const graph = structuredClone(flow.graph);
    graph.nodes.find((n) => n.type === "conversationChain")!.data.inputs.systemMessage = "Answer like a poet.";
    const saved = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: flow.id },
      headers: admin,
      body: { graph },
    });
    expect(saved.status).toBe(200);
    expect((await ask(flow.id)).json.text).toBe("system said: Answer like a poet.");
  });

  it("refuses predictions of a deleted chatflow at once with 404", async () => {
    const flow = await createFlow(admin);
    expect((await ask(flow.id)).status).toBe(200);
    expect(
      (await call(chatflowById.DELETE, { method: "DELETE", params: { id: flow.id }, headers: admin })).status,
    ).toBe(200);
    const gone = await ask(flow.id);
    expect(gone.status).toBe(404);
    expect(gone.json.error.code).toBe("not_found");
  });
});

describe("API key changes reach the next request", () => {
  it("refuses a revoked key on the prediction route at once, though it was just used", async () => {
    const flow = await createFlow(admin);
    const created = await call(apikeys.POST, {
      method: "POST",
      headers: admin,
      body: { name: "short-lived", permissions: ["predict"], chatflowIds: [flow.id] },
    });
    expect((await ask(flow.id, auth.bearer(created.json.key))).status).toBe(200);
    expect(
      (await call(apikeyById.DELETE, { method: "DELETE", params: { id: created.json.id }, headers: admin })).status,
    ).toBe(200);
    const refused = await ask(flow.id, auth.bearer(created.json.key));
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe("unauthorized");
    expect((await ask(flow.id)).status).toBe(200);
  });
});
