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

// Flowise's Simple Chat Engine template on Azure: a LlamaIndex AzureChatOpenAI and a buffer memory
// into the engine, built here in Flowise's export shape. Imported onto our Azure OpenAI chat model and
// conversation chain, given an Azure OpenAI credential pointing at the scripted model, and run.
const node = (id: string, name: string, inputs: Record<string, unknown>) => ({
  id,
  type: "customNode",
  position: { x: 0, y: 0 },
  data: { id, name, label: id, inputs },
});
const flow = {
  nodes: [
    node("azure_0", "azureChatOpenAI_LlamaIndex", {
      modelName: "gpt-35-turbo",
      temperature: 0.9,
      maxTokens: "",
      topP: "",
      timeout: "",
    }),
    node("memory_0", "bufferMemory", { sessionId: "", memoryKey: "chat_history" }),
    node("engine_0", "simpleChatEngine", {
      model: "{{azure_0.data.instance}}",
      memory: "{{memory_0.data.instance}}",
      systemMessagePrompt: "You are a helpful assistant.",
    }),
  ],
  edges: [
    {
      source: "azure_0",
      sourceHandle: "azure_0-output-azureChatOpenAI_LlamaIndex-AzureChatOpenAI|BaseChatModel_LlamaIndex",
      target: "engine_0",
      targetHandle: "engine_0-input-model-BaseChatModel_LlamaIndex",
    },
    {
      source: "memory_0",
      sourceHandle: "memory_0-output-bufferMemory-BufferMemory|BaseChatMemory|BaseMemory",
      target: "engine_0",
      targetHandle: "engine_0-input-memory-BaseChatMemory",
    },
  ],
};

const KEY = "azure-key-1";
let stub: ModelStub;
let session: Record<string, string>;
beforeAll(async () => {
  stub = await createModelStub({ apiKey: KEY });
  Object.assign(process.env, { OUTBOUND_ALLOW_HOSTS: new URL(stub.url).host });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});
afterAll(() => stub.close());

describe("Flowise Simple Chat Engine on Azure (LlamaIndex)", () => {
  it("imports onto our Azure OpenAI chat model, said so, and answers through the deployment with the history", async () => {
    const imported = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: { name: "Simple chat engine on Azure", ...flow },
    });
    expect(imported.status, imported.text.slice(0, 500)).toBe(201);
    const graph = imported.json.graph as Graph;
    expect(Object.fromEntries(graph.nodes.map((n) => [n.id, n.type]))).toEqual({
      azure_0: "azureChatOpenAI",
      memory_0: "bufferMemory",
      engine_0: "conversationChain",
    });
    const warnings = (imported.json.warnings as { nodeId: string; message: string }[]).map((w) => [
      w.nodeId,
      w.message,
    ]);
    expect(warnings).toContainEqual([
      "azure_0",
      expect.stringContaining('LlamaIndex node "AzureChatOpenAI" was imported as our Azure OpenAI Chat Model'),
    ]);

    const cred = await call(credentials.POST, {
      method: "POST",
      headers: session,
      body: { name: "Azure", type: "azureOpenAI", data: { apiKey: KEY, baseURL: stub.origin } },
    });
    expect(cred.status, cred.text).toBe(201);
    graph.nodes.find((n) => n.id === "azure_0")!.data.inputs.credential = cred.json.id;
    const saved = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: imported.json.id },
      headers: session,
      body: { graph },
    });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);

    stub.setBrain((req) => ({ content: `seen ${req.messages.length} messages` }));
    const before = stub.requests.length;
    const ask = (question: string) =>
      call(prediction.POST, {
        method: "POST",
        params: { id: imported.json.id },
        headers: session,
        body: { question, overrideConfig: { sessionId: "s-azure" } },
      });
    expect((await ask("Hello")).json.text).toBe("seen 2 messages");
    expect((await ask("Again")).json.text).toBe("seen 4 messages");
    const sent = stub.requests.slice(before);
    expect(sent.map((r) => r.path)).toEqual([
      "/openai/deployments/gpt-35-turbo/chat/completions",
      "/openai/deployments/gpt-35-turbo/chat/completions",
    ]);
    expect(JSON.stringify(sent[0].body)).toContain("You are a helpful assistant.");
  });
});
