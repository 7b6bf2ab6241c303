// Finding 2 of issue 10 (SSRF): a caller's serverUrl override got the "builder named it" private
// allowance, a fetched spec's private server was called, and chat-model and speech-to-text base
// URLs bypassed the outbound guard. Now one guard covers every request made for a flow: private,
// loopback and link-local addresses only when the operator allows them (OUTBOUND_ALLOW_HOSTS),
// in any spelling of the address, and after redirects too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { systemCaller } from "../../dev/callers";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createRecordingServer, type RecordingServer } from "../support/recording-server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { createChatflow } from "../../lib/services/chatflows";
import type { Graph } from "@/common/schemas/graph";

const WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(128, 3)]);
const audio = {
  type: "audio",
  name: "voice.webm",
  mime: "audio/webm",
  data: `data:audio/webm;base64,${WEBM.toString("base64")}`,
};

let stub: ModelStub;
let internal: RecordingServer;
let specHost: RecordingServer;
let redirector: RecordingServer;
let specBody = "";

beforeAll(async () => {
  [stub, internal] = await Promise.all([createModelStub(), createRecordingServer()]);
  specHost = await createRecordingServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/yaml" });
    res.end(specBody);
  });
  // An allowed host that redirects every request to the model stub, which is not allowed.
  redirector = await createRecordingServer((req, res) => {
    res.writeHead(307, { location: `http://127.0.0.1:${stub.port}${req.url}` });
    res.end();
  });
  delete process.env.OPENAI_BASE_URL; // its host would be allowed: keep the operator list explicit
  Object.assign(process.env, {
    OPENAI_API_KEY: "sk-server",
    OPENAI_MODEL: "stub-model",
    OUTBOUND_ALLOW_PRIVATE: "false",
  });
});
afterAll(() => Promise.all([stub.close(), internal.close(), specHost.close(), redirector.close()]));

/** The operator's allow-list for what follows (read when a flow is built: each case saves a new flow). */
function allowHosts(list: string): void {
  process.env.OUTBOUND_ALLOW_HOSTS = list;
  resetEnvForTests();
}

let flowCount = 0;
async function saveFlow(
  file: "conversation.json" | "openapi-chain-only.json",
  edit: (g: Graph) => void,
  extra: object = {},
): Promise<string> {
  const graph = exampleFlow(file).graph as Graph;
  edit(graph);
  return (
    await createChatflow(
      { name: `ssrf ${(flowCount += 1)}`, graph: graph as never, isPublic: true, ...extra },
      systemCaller,
    )
  ).id;
}

const nodeOf = (g: Graph, type: string) => g.nodes.find((n) => n.type === type)!;
const chatFlowAt = (baseURL: string, extra: object = {}) =>
  saveFlow(
    "conversation.json",
    (g) => Object.assign(nodeOf(g, "chatOpenAICompatible").data.inputs, { baseURL }),
    extra,
  );
const predict = (id: string, body: object) => call(prediction.POST, { method: "POST", params: { id }, body });

describe("chat-model base URLs", () => {
  it("refuses a private model server the operator did not allow, naming OUTBOUND_ALLOW_HOSTS", async () => {
    allowHosts("");
    const res = await predict(await chatFlowAt(stub.url), { question: "hello" });
    expect(res.status).toBe(403);
    expect(res.json.error.message).toContain("OUTBOUND_ALLOW_HOSTS");
    expect(res.json.error.message).toContain(`127.0.0.1:${stub.port}`);
    expect(stub.requests).toEqual([]);
  });

  it("lets exactly the allowed host:port through", async () => {
    allowHosts(`127.0.0.1:${stub.port + 1}`);
    expect((await predict(await chatFlowAt(stub.url), { question: "hello" })).status).toBe(403);
    expect(stub.requests).toEqual([]);
    allowHosts(`127.0.0.1:${stub.port}`);
    const ok = await predict(await chatFlowAt(stub.url), { question: "hello" });
    expect(ok.status).toBe(200);
    expect(stub.requests.length).toBeGreaterThan(0);
    stub.requests.length = 0;
  });

  it("refuses every spelling of a private address: IPv6-mapped, decimal, octal, hex, localhost, metadata", async () => {
    allowHosts("");
    const p = stub.port;
    const urls = [
      `http://[::ffff:127.0.0.1]:${p}/v1`,
      `http://[::ffff:7f00:1]:${p}/v1`,
      `http://[::1]:${p}/v1`,
      `http://2130706433:${p}/v1`,
      `http://0177.0.0.1:${p}/v1`,
      `http://0x7f.0.0.1:${p}/v1`,
      `http://127.1:${p}/v1`,
      `http://localhost:${p}/v1`,
      "http://169.254.169.254/latest/meta-data",
      "http://[fd00::1]/v1",
      "http://10.0.0.1/v1",
    ];
    for (const url of urls) {
      const res = await predict(await chatFlowAt(url), { question: "hello" });
      expect(res.status, url).toBe(403);
      expect(res.json.error.code, url).toBe("forbidden");
    }
    expect(stub.requests).toEqual([]);
  });

  it("refuses a redirect from an allowed host to a private one", async () => {
    allowHosts(redirector.host);
    const res = await predict(await chatFlowAt(`${redirector.origin}/v1`), { question: "hello" });
    expect(res.status).toBe(403);
    expect(res.json.error.message).toContain(`127.0.0.1:${stub.port}`);
    expect(redirector.requests.length).toBeGreaterThan(0);
    expect(stub.requests).toEqual([]);
  });
});

describe("OpenAPI chain servers", () => {
  it("refuses overrideConfig.serverUrl to a private host, even on an old allow-list", async () => {
    allowHosts(`127.0.0.1:${stub.port}`);
    const id = await saveFlow("openapi-chain-only.json", (g) =>
      Object.assign(nodeOf(g, "chatOpenAICompatible").data.inputs, { baseURL: stub.url }),
    );
    await (await getDb()).chatflow.update({ where: { id }, data: { overrideAllowList: ["serverUrl"] } });
    const res = await predict(id, { question: "laptops?", overrideConfig: { serverUrl: internal.origin } });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain("serverUrl");
    expect(internal.requests).toEqual([]);
  });

  const specFlow = () =>
    saveFlow("openapi-chain-only.json", (g) => {
      const chain = nodeOf(g, "openApiChain").data.inputs;
      delete chain.spec;
      chain.specUrl = `${specHost.origin}/openapi.yaml`;
    });
  const spec = (server: string) =>
    `openapi: 3.0.0\ninfo: { title: Shop, version: "1" }\nservers:\n  - url: ${server}\npaths:\n  /products:\n    get:\n      operationId: list\n      responses: { "200": { description: ok } }\n`;

  it("never calls a private server declared by a fetched spec", async () => {
    allowHosts(`${specHost.host},${internal.host}`); // even an allowed private host: the fetched spec may not choose it
    for (const server of [internal.origin, "http://169.254.169.254", "http://10.0.0.7:8080"]) {
      specBody = spec(server);
      const res = await predict(await specFlow(), { question: "laptops?" });
      expect(res.status, server).toBe(422);
      expect(res.json.error.message).toMatch(/fetched spec's servers are not trusted/);
    }
    expect(specHost.requests.length).toBe(3);
    expect(internal.requests).toEqual([]);
  });

  it("refuses to fetch a spec from a private host the operator did not allow", async () => {
    allowHosts("");
    const before = specHost.requests.length;
    const res = await predict(await specFlow(), { question: "laptops?" });
    expect(res.status).toBe(403);
    expect(res.json.error.message).toContain("OUTBOUND_ALLOW_HOSTS");
    expect(specHost.requests.length).toBe(before);
  });
});

describe("speech-to-text base URL", () => {
  it("refuses a private transcription server the operator did not allow; allows the named host:port", async () => {
    allowHosts("");
    const refused = await predict(await chatFlowAt(stub.url, { speechToText: { enabled: true, baseUrl: stub.url } }), {
      uploads: [audio],
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain("OUTBOUND_ALLOW_HOSTS");
    expect(stub.requests).toEqual([]);
    allowHosts(`127.0.0.1:${stub.port}`);
    const ok = await predict(await chatFlowAt(stub.url, { speechToText: { enabled: true, baseUrl: stub.url } }), {
      uploads: [audio],
    });
    expect(ok.status).toBe(200);
    expect(stub.requests.some((r) => r.path.endsWith("/audio/transcriptions"))).toBe(true);
  });
});
