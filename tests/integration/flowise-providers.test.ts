import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";
import { auth, call } from "../support/http";

// A Flowise conversation chatflow (exported from Flowise 3.1.4) with its model swapped for each hosted
// provider's Flowise node, as a user's export of the same flow on that provider would read; then the
// import, a credential of the provider's kind pointing at the scripted model, and one answer.
const FIXTURES = path.resolve(import.meta.dirname, "../../../shared/fixtures/flowise");
type FlowiseJson = {
  nodes: { id: string; data: { name: string; inputs: Record<string, unknown> } }[];
  edges: { sourceHandle: string }[];
};

/** The fixture with its model node made a `name` node holding `inputs`, its edge's handle renamed to match. */
function conversationOn(name: string, inputs: Record<string, unknown>): FlowiseJson {
  const flow: FlowiseJson = JSON.parse(fs.readFileSync(path.join(FIXTURES, "conversation.json"), "utf8"));
  const model = flow.nodes.find((n) => n.id === "chatOpenAI_0")!;
  model.data = { ...model.data, name, inputs };
  for (const e of flow.edges) e.sourceHandle = e.sourceHandle.replace("-output-chatOpenAI-", `-output-${name}-`);
  return flow;
}

const KEY = "provider-key-1";
let stub: ModelStub;
let session: Record<string, string>;

beforeAll(async () => {
  stub = await createModelStub({ apiKey: KEY });
  Object.assign(process.env, { OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${new URL(stub.url).port}` });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});
afterAll(() => stub.close());

/** Flowise's own input names per provider node (what its export holds), and ours. */
const PROVIDERS = [
  {
    flowise: "groqChat",
    ours: "chatGroq",
    credential: "groq",
    inputs: { modelName: "llama-3.3-70b-versatile", temperature: 0.9, streaming: true },
  },
  {
    flowise: "chatDeepseek",
    ours: "chatDeepseek",
    credential: "deepseek",
    inputs: {
      modelName: "deepseek-chat",
      temperature: 0.7,
      maxTokens: "",
      topP: "",
      frequencyPenalty: "",
      presencePenalty: "",
      timeout: "",
      stopSequence: "",
      baseOptions: "",
      streaming: true,
    },
  },
  {
    flowise: "chatMistralAI",
    ours: "chatMistralAI",
    credential: "mistralAI",
    inputs: {
      modelName: "mistral-small-latest",
      temperature: 0.9,
      maxOutputTokens: "256",
      topP: "",
      randomSeed: "",
      safeMode: false,
      overrideEndpoint: "",
      streaming: true,
    },
  },
  {
    flowise: "chatOpenRouter",
    ours: "chatOpenRouter",
    credential: "openRouter",
    inputs: {
      modelName: "openai/gpt-4o-mini",
      temperature: 0.9,
      basepath: "https://openrouter.ai/api/v1",
      baseOptions: "",
      streaming: true,
    },
  },
  {
    flowise: "chatTogetherAI",
    ours: "chatTogetherAI",
    credential: "togetherAI",
    inputs: { modelName: "meta-llama/Llama-3.3-70B-Instruct-Turbo", temperature: 0.9, streaming: true },
  },
  {
    flowise: "azureChatOpenAI",
    ours: "azureChatOpenAI",
    credential: "azureOpenAI",
    inputs: {
      modelName: "gpt-4o",
      temperature: 0.9,
      maxTokens: "",
      frequencyPenalty: "",
      presencePenalty: "",
      timeout: "",
      allowImageUploads: false,
      imageResolution: "low",
      streaming: true,
    },
  },
] as const;

describe("Flowise chatflows on hosted providers import and answer", () => {
  it.each(PROVIDERS)("$flowise → $ours: imported, given a $credential credential, answers", async (p) => {
    const flow = conversationOn(p.flowise, { cache: "", ...p.inputs });
    const imported = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: { name: `Conversation on ${p.flowise}`, ...flow },
    });
    expect(imported.status, imported.text.slice(0, 400)).toBe(201);
    const graph = imported.json.graph as Graph;
    const node = graph.nodes.find((n) => n.id === "chatOpenAI_0")!;
    expect(node.type).toBe(p.ours);
    expect(node.data.inputs.model).toBe(p.inputs.modelName);

    const cred = await call(credentials.POST, {
      method: "POST",
      headers: session,
      body: {
        name: `${p.credential} key`,
        type: p.credential,
        data: { apiKey: KEY, baseURL: p.ours === "azureChatOpenAI" ? stub.origin : stub.url },
      },
    });
    expect(cred.status, cred.text).toBe(201);
    node.data.inputs.credential = cred.json.id;
    const saved = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: imported.json.id },
      headers: session,
      body: { graph },
    });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);

    stub.setBrain(() => ({ content: `Hello from ${p.ours}` }));
    const before = stub.requests.length;
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id: imported.json.id },
      headers: session,
      body: { question: "Hi there" },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.text).toBe(`Hello from ${p.ours}`);
    const sent = stub.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe(
      p.ours === "azureChatOpenAI" ? "/openai/deployments/gpt-4o/chat/completions" : "/v1/chat/completions",
    );
    expect(sent[0].body).toMatchObject({ model: p.inputs.modelName });
  });

  it("a provider that refuses the key → 502 saying so, the key never in the answer", async () => {
    const flow = conversationOn("groqChat", { modelName: "llama-3.1-8b-instant", temperature: 0.5 });
    const imported = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: { name: "Refused", ...flow },
    });
    const cred = await call(credentials.POST, {
      method: "POST",
      headers: session,
      body: { name: "wrong groq key", type: "groq", data: { apiKey: "gsk-wrong-secret", baseURL: stub.url } },
    });
    const graph = imported.json.graph as Graph;
    graph.nodes.find((n) => n.id === "chatOpenAI_0")!.data.inputs.credential = cred.json.id;
    await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: imported.json.id },
      headers: session,
      body: { graph },
    });
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id: imported.json.id },
      headers: session,
      body: { question: "Hi" },
    });
    expect(res.status).toBe(502);
    expect(res.json.error.message).toMatch(/refused the credentials \(HTTP 401\)/);
    expect(res.text).not.toContain("gsk-wrong-secret");
  });

  it("Flowise's LocalAI chat model imports onto the OpenAI-compatible node with its base path", async () => {
    const flow = conversationOn("chatLocalAI", {
      cache: "",
      basePath: "http://127.0.0.1:8080/v1",
      modelName: "ggml-gpt4all-j",
      temperature: 0.9,
      maxTokens: "",
      topP: "",
      timeout: "",
      streaming: true,
    });
    const imported = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: { name: "LocalAI", ...flow },
    });
    expect(imported.status, imported.text.slice(0, 400)).toBe(201);
    const node = (imported.json.graph as Graph).nodes.find((n) => n.id === "chatOpenAI_0")!;
    expect(node).toMatchObject({
      type: "chatOpenAICompatible",
      data: { inputs: { baseURL: "http://127.0.0.1:8080/v1", model: "ggml-gpt4all-j" } },
    });
  });
});
