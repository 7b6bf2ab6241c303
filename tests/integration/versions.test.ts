import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { parseSse } from "../../dev/route-server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as publicConfig from "../../app/api/v1/public-chatbotConfig/[id]/route";
import * as chatflowRoutes from "../../app/api/v1/chatflows/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as versionList from "../../app/api/v1/chatflows/[id]/versions/route";
import * as versionOne from "../../app/api/v1/chatflows/[id]/versions/[n]/route";
import * as versionDiff from "../../app/api/v1/chatflows/[id]/versions/[n]/diff/route";
import * as versionRestore from "../../app/api/v1/chatflows/[id]/versions/[n]/restore/route";
import * as publish from "../../app/api/v1/chatflows/[id]/publish/route";
import * as messages from "../../app/api/v1/chatmessage/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { createApiKey } from "../../lib/services/api-keys";
import { createUser, setupFirstAdmin } from "../../lib/services/users";
import { createCredential } from "../../lib/services/credentials";
import { userCaller } from "../../dev/callers";

// Versions, draft and published (issue 16): every save stores a version; the API, the widget's
// settings and the public pages run the published one while the studio works on the draft.

let stub: ModelStub;
let session: Record<string, string>;
let builderSession: Record<string, string>;
let predictKey: string;
let managerKey: string;
let flowId: string;
let adminCaller: ReturnType<typeof userCaller>;
const conversation = exampleFlow("conversation.json");
const ASK = { question: "What are your instructions?" };

/** The conversation example's graph with another system message. */
function withSystemMessage(text: string) {
  const graph = structuredClone(conversation.graph) as { nodes: { id: string; data: { inputs: object } }[] };
  const node = graph.nodes.find((n) => n.id === "conversation")!;
  node.data.inputs = { ...node.data.inputs, systemMessage: text };
  return graph;
}

const save = (body: object, headers = session) =>
  call(chatflowById.PUT, { method: "PUT", params: { id: flowId }, headers, body });
const predict = (headers: Record<string, string>, query = "", body: object = ASK) =>
  call(prediction.POST, {
    method: "POST",
    path: `/api/v1/prediction/${flowId}${query}`,
    params: { id: flowId },
    headers: { "x-switchyard-client-ip": "10.0.0.9", ...headers },
    body,
  });
const versions = () => call(versionList.GET, { params: { id: flowId }, headers: session });
/** POST /publish {version} on the flow, as `headers` (the admin's session by default). */
const publishVersion = (version: number, headers = session) =>
  call(publish.POST, { method: "POST", params: { id: flowId }, headers, body: { version } });

beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "ada@example.com", name: "Ada Admin", password: "admin-pass-1" });
  session = await auth.session(admin.id, admin.email);
  const builder = await createUser({
    email: "bob@example.com",
    name: "Bob",
    password: "builder-pass-1",
    role: "builder",
  });
  builderSession = await auth.session(builder.id, builder.email);
  adminCaller = userCaller({ ...admin, role: "admin" });
  predictKey = (await createApiKey({ name: "predict only", permissions: ["predict"], chatflowIds: [] }, adminCaller))
    .key;
  managerKey = (
    await createApiKey({ name: "manager", permissions: ["predict", "chatflows"], chatflowIds: [] }, adminCaller)
  ).key;
  const created = await call(chatflowRoutes.POST, {
    method: "POST",
    headers: session,
    body: {
      name: "Versioned",
      graph: conversation.graph,
      overrideAllowList: conversation.overrideAllowList,
      isPublic: true,
      chatbotConfig: { title: "First title" },
      versionMessage: "First cut",
    },
  });
  expect(created.status, created.text).toBe(201);
  flowId = created.json.id;
});
afterAll(() => stub.close());

describe("every save stores a version", () => {
  it("creating is version 1, by its author, with its message; a save of the graph is version 2", async () => {
    let list = await versions();
    expect(list.status, list.text).toBe(200);
    expect(list.json).toMatchObject({ version: 1, publishedVersion: null });
    expect(list.json.versions).toEqual([
      expect.objectContaining({ version: 1, author: "Ada Admin", message: "First cut", published: false, draft: true }),
    ]);
    const saved = await save({
      graph: withSystemMessage("You are Polly the parrot."),
      versionMessage: "Parrot persona",
      expectedVersion: 1,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.version).toBe(2);
    list = await versions();
    expect(list.json.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(list.json.versions[0]).toMatchObject({ message: "Parrot persona", author: "Ada Admin", draft: true });
    const one = await call(versionOne.GET, { params: { id: flowId, n: "1" }, headers: session });
    expect(one.status).toBe(200);
    expect(JSON.stringify(one.json.graph)).toContain("You are a helpful assistant.");
    expect(one.json.chatbotConfig).toEqual({ title: "First title" });
  });

  it("a save of access settings alone (name, public, requirePassingTests) stores no version", async () => {
    const res = await save({ name: "Versioned flow", requirePassingTests: true });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ version: 2, requirePassingTests: true, publishedVersion: null });
    expect((await versions()).json.versions).toHaveLength(2);
    const read = await call(chatflowById.GET, { params: { id: flowId }, headers: session });
    expect(read.json.requirePassingTests).toBe(true);
    await save({ requirePassingTests: false });
  });

  it("a version message without anything that makes a version is refused (400), not dropped", async () => {
    const res = await save({ name: "Renamed", versionMessage: "lost?" });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/versionMessage/);
    expect((await call(chatflowById.GET, { params: { id: flowId }, headers: session })).json.name).toBe(
      "Versioned flow",
    );
  });

  it("a stale expectedVersion is still refused (409) and stores nothing", async () => {
    const res = await save({ graph: withSystemMessage("Lost edit"), expectedVersion: 1 });
    expect(res.status).toBe(409);
    expect((await versions()).json.versions).toHaveLength(2);
  });
});

describe("draft and published", () => {
  it("never published: the API runs the latest version and says which", async () => {
    const res = await predict(auth.bearer(predictKey));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("x-chatflow-version")).toBe("2");
    expect(res.json.chatflowVersion).toBe(2);
    expect(res.json.text).toContain("Polly the parrot");
  });

  it("publish pins the API, the stream and the widget's uploads while the draft changes", async () => {
    const published = await publishVersion(1);
    expect(published.status, published.text).toBe(200);
    expect(published.json).toMatchObject({ publishedVersion: 1, version: 2 });
    // A new draft: another system message.
    const draft = await save({ graph: withSystemMessage("You are Rex the dog.") });
    expect(draft.json.version).toBe(3);

    const api = await predict(auth.bearer(predictKey));
    expect(api.headers.get("x-chatflow-version")).toBe("1");
    expect(api.json.text).toContain("You are a helpful assistant.");
    expect(api.json.text).not.toContain("Rex");

    const stream = await predict(auth.bearer(predictKey), "", { ...ASK, streaming: true });
    expect(stream.headers.get("x-chatflow-version")).toBe("1");
    const metadata = parseSse(stream.text).find((e) => e.event === "metadata");
    expect(metadata?.data).toMatchObject({ chatflowVersion: 1 });

    // The studio's test chat asks for the draft.
    const studio = await predict(session, "?version=draft");
    expect(studio.status, studio.text).toBe(200);
    expect(studio.headers.get("x-chatflow-version")).toBe("3");
    expect(studio.json.text).toContain("Rex the dog");

    const anonymous = await predict({});
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get("x-chatflow-version")).toBe("1");

    const list = await versions();
    expect(list.json.versions.find((v: { published: boolean }) => v.published)?.version).toBe(1);

    // Publishing the draft makes the API follow it.
    await publishVersion(3);
    const after = await predict(auth.bearer(predictKey));
    expect(after.headers.get("x-chatflow-version")).toBe("3");
    expect(after.json.text).toContain("Rex the dog");
  });

  it("chatbot settings are no part of a version: saved, they reach the widget at once with no new draft", async () => {
    const before = (await versions()).json;
    expect(before).toMatchObject({ version: 3, publishedVersion: 3 });
    expect((await call(publicConfig.GET, { params: { id: flowId } })).json.title).toBe("First title");
    const res = await save({
      chatbotConfig: { title: "Live title", welcomeMessage: "Hi there", starterPrompts: ["Who are you?"] },
      expectedVersion: 3,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ version: 3, publishedVersion: 3 });
    expect((await versions()).json.versions).toHaveLength(before.versions.length);
    const widget = await call(publicConfig.GET, { params: { id: flowId } });
    expect(widget.json).toMatchObject({
      title: "Live title",
      welcomeMessage: "Hi there",
      starterPrompts: { "0": { prompt: "Who are you?" } },
    });
    // Whatever version is published: pinning an older one keeps today's chatbot settings.
    await publishVersion(2);
    expect((await call(publicConfig.GET, { params: { id: flowId } })).json.title).toBe("Live title");
    await publishVersion(3);
    // With a message, a save of chatbot settings alone is refused: no version would hold it.
    const withMessage = await save({ chatbotConfig: { title: "Live title" }, versionMessage: "New title" });
    expect(withMessage.status).toBe(400);
    expect(withMessage.json.error.message).toMatch(/overrideAllowList, speechToText/);
  });

  it("publishing an unknown version is 404 and changes nothing", async () => {
    const res = await publishVersion(99);
    expect(res.status).toBe(404);
    expect((await versions()).json.publishedVersion).toBe(3);
  });

  it("the Message API records the version each answer came from", async () => {
    const res = await predict(session, "?version=2", { ...ASK, overrideConfig: { sessionId: "versions-s1" } });
    expect(res.status, res.text).toBe(200);
    const stored = await call(messages.GET, {
      params: { id: flowId },
      path: `/api/v1/chatmessage/${flowId}?sessionId=versions-s1`,
      headers: session,
    });
    expect(stored.status, stored.text).toBe(200);
    const answer = stored.json.find((m: { role: string }) => m.role === "apiMessage");
    expect(answer.chatflowVersion).toBe(2);
    expect(stored.json.find((m: { role: string }) => m.role === "userMessage").chatflowVersion).toBeNull();
  });
});

describe("?version= on prediction", () => {
  it("runs the pinned version for a key with chatflows and a studio session", async () => {
    const key = await predict(auth.bearer(managerKey), "?version=2");
    expect(key.status, key.text).toBe(200);
    expect(key.headers.get("x-chatflow-version")).toBe("2");
    expect(key.json.text).toContain("Polly");
    const studio = await predict(session, "?version=1");
    expect(studio.json.text).toContain("helpful assistant");
  });

  it("is refused to a predict-only key and to anonymous callers (403), even on a public chatflow", async () => {
    const key = await predict(auth.bearer(predictKey), "?version=2");
    expect(key.status).toBe(403);
    expect(key.json.error.message).toMatch(/managers/);
    const anonymous = await predict({}, "?version=draft");
    expect(anonymous.status).toBe(403);
  });

  it("answers 404 for an unknown version and 400 for a malformed one", async () => {
    expect((await predict(session, "?version=42")).status).toBe(404);
    const bad = await predict(session, "?version=latest");
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/version/);
  });

  it("another builder cannot read, diff or publish the versions (404, as for the chatflow)", async () => {
    expect((await call(versionList.GET, { params: { id: flowId }, headers: builderSession })).status).toBe(404);
    const pub = await publishVersion(1, builderSession);
    expect(pub.status).toBe(404);
  });
});

describe("diff and restore", () => {
  it("the diff names the changed input with old and new values, and no chatbot settings (not versioned)", async () => {
    const res = await call(versionDiff.GET, {
      params: { id: flowId, n: "3" },
      path: `/api/v1/chatflows/${flowId}/versions/3/diff?against=1`,
      headers: session,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ from: 1, to: 3, nodesAdded: [], nodesRemoved: [] });
    expect(res.json.inputsChanged).toEqual([
      expect.objectContaining({
        nodeId: "conversation",
        input: "systemMessage",
        old: "You are a helpful assistant.",
        new: "You are Rex the dog.",
      }),
    ]);
    // Version 1 recorded "First title" and version 3 "Live title" would be recorded by a later save:
    // neither is a difference between versions.
    expect(res.json.settingsChanged).toEqual([]);
    const stt = await save({ speechToText: { enabled: true } });
    expect(stt.json.version).toBe(4);
    const sttDiff = await call(versionDiff.GET, {
      params: { id: flowId, n: "4" },
      path: `/api/v1/chatflows/${flowId}/versions/4/diff`,
      headers: session,
    });
    expect(sttDiff.json.settingsChanged).toEqual([{ setting: "speechToText.enabled", old: null, new: true }]);
  });

  it("lists added and removed nodes and edges, and credentials by name only", async () => {
    const cred = await createCredential(
      { name: "Team OpenAI", type: "openai", data: { apiKey: "sk-very-secret-value" } },
      adminCaller,
    );
    const graph = withSystemMessage("You are Rex the dog.") as unknown as {
      nodes: { id: string; type: string; data: { inputs: Record<string, unknown> } }[];
      edges: { id: string; target: string }[];
    };
    graph.nodes.find((n) => n.id === "chatModel")!.data.inputs.credential = cred.id;
    graph.nodes = graph.nodes.filter((n) => n.id !== "memory");
    graph.edges = graph.edges.filter((e) => !e.id.startsWith("memory"));
    const saved = await save({ graph });
    expect(saved.status, saved.text).toBe(200);
    const n = saved.json.version;
    const res = await call(versionDiff.GET, {
      params: { id: flowId, n: String(n) },
      path: `/api/v1/chatflows/${flowId}/versions/${n}/diff?against=4`,
      headers: session,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.nodesRemoved).toEqual([expect.objectContaining({ id: "memory", type: "bufferMemory" })]);
    expect(res.json.edgesRemoved).toHaveLength(1);
    expect(res.json.inputsChanged).toEqual([
      expect.objectContaining({
        nodeId: "chatModel",
        input: "credential",
        old: null,
        new: { credential: "Team OpenAI" },
      }),
    ]);
    expect(res.text).not.toContain("sk-very-secret-value");
    expect(res.text).not.toContain(cred.id);
    const back = await call(versionDiff.GET, {
      params: { id: flowId, n: "4" },
      path: `/api/v1/chatflows/${flowId}/versions/4/diff?against=${n}`,
      headers: session,
    });
    expect(back.json.nodesAdded).toEqual([expect.objectContaining({ id: "memory" })]);
    expect(back.json.edgesAdded).toHaveLength(1);
  });

  it("an unknown version or against is 404; against defaults to the version before", async () => {
    const unknown = await call(versionDiff.GET, {
      params: { id: flowId, n: "3" },
      path: `/api/v1/chatflows/${flowId}/versions/3/diff?against=77`,
      headers: session,
    });
    expect(unknown.status).toBe(404);
    const previous = await call(versionDiff.GET, {
      params: { id: flowId, n: "3" },
      path: `/api/v1/chatflows/${flowId}/versions/3/diff`,
      headers: session,
    });
    expect(previous.json).toMatchObject({ from: 2, to: 3 });
    const first = await call(versionDiff.GET, {
      params: { id: flowId, n: "1" },
      path: `/api/v1/chatflows/${flowId}/versions/1/diff`,
      headers: session,
    });
    expect(first.status).toBe(400);
    expect(first.json.error.message).toMatch(/against/);
  });

  it("restore makes a new version with the old content; the published one and the chatbot settings stay", async () => {
    const before = (await versions()).json;
    const res = await call(versionRestore.POST, {
      method: "POST",
      params: { id: flowId, n: "1" },
      headers: session,
      body: {},
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.version).toBe(before.version + 1);
    expect(res.json.publishedVersion).toBe(3);
    expect(JSON.stringify(res.json.graph)).toContain("You are a helpful assistant.");
    expect(res.json.chatbotConfig).toMatchObject({ title: "Live title" });
    expect((await call(publicConfig.GET, { params: { id: flowId } })).json.title).toBe("Live title");
    const after = (await versions()).json;
    expect(after.versions[0]).toMatchObject({ version: before.version + 1, message: "Restored from version 1" });
    const draft = await predict(session, "?version=draft");
    expect(draft.json.text).toContain("helpful assistant");
    const api = await predict(auth.bearer(predictKey));
    expect(api.headers.get("x-chatflow-version")).toBe("3");
  });
});
