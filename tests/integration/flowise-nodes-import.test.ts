// Flowise flows using the node types of issue 13 (ChatOllama, Calculator, CurrentDateTime, Requests
// Get/Post, In-Memory Vector Store, ChatOpenAI Custom) go through the real import route and run.
// The Flowise JSON is written here in Flowise's export shape (handles, {{id.data.instance}} values).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { textOf } from "../../dev/model-stub/brain";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { validateGraph } from "../../lib/flow";
import { setupFirstAdmin } from "../../lib/services/users";
import { auth, call } from "../support/http";

let session: Record<string, string>;
let stub: ModelStub;

beforeAll(async () => {
  stub = await createModelStub();
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});
afterAll(() => stub.close());

const fwNode = (id: string, name: string, inputs: Record<string, unknown>) => ({
  id,
  type: "customNode",
  position: { x: 0, y: 0 },
  data: { id, name, label: name, version: 1, inputs },
});
const fwEdge = (source: string, output: string, target: string, input: string) => ({
  source,
  sourceHandle: `${source}-output-${output}-Tool|StructuredTool|Runnable`,
  target,
  targetHandle: `${target}-input-${input}-Tool`,
});

const importFlow = (body: unknown) => call(importRoute.POST, { method: "POST", headers: session, body });

describe("importing Flowise flows with the issue-13 node types", () => {
  it("a Tool Agent on ChatOllama with Calculator, CurrentDateTime and Requests Get imports and runs", async () => {
    const res = await importFlow({
      name: "Ollama agent",
      nodes: [
        fwNode("chatOllama_0", "chatOllama", {
          baseUrl: stub.origin,
          modelName: "llama3.2",
          temperature: "0.3",
          numCtx: "8192",
          keepAlive: "5m",
          streaming: true,
          topK: "",
        }),
        fwNode("calculator_0", "calculator", {}),
        fwNode("currentDateTime_0", "currentDateTime", {}),
        fwNode("requestsGet_0", "requestsGet", {
          requestsGetUrl: "https://api.example.com/items",
          requestsGetName: "Item Search",
          requestsGetMaxOutputLength: "500",
          requestsGetHeaders: "",
        }),
        fwNode("toolAgent_0", "toolAgent", {
          model: "{{chatOllama_0.data.instance}}",
          tools: [
            "{{calculator_0.data.instance}}",
            "{{currentDateTime_0.data.instance}}",
            "{{requestsGet_0.data.instance}}",
          ],
          maxIterations: "5",
        }),
      ],
      edges: [
        fwEdge("calculator_0", "calculator", "toolAgent_0", "tools"),
        fwEdge("currentDateTime_0", "currentDateTime", "toolAgent_0", "tools"),
        fwEdge("requestsGet_0", "requestsGet", "toolAgent_0", "tools"),
      ],
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const graph = res.json.graph;
    const inputs = (id: string) => graph.nodes.find((n: { id: string }) => n.id === id).data.inputs;
    expect(graph.nodes.map((n: { type: string }) => n.type)).toEqual([
      "chatOllama",
      "calculator",
      "currentDateTime",
      "requestsGet",
      "toolAgent",
    ]);
    expect(inputs("chatOllama_0")).toEqual({ baseUrl: stub.origin, model: "llama3.2", temperature: 0.3 });
    expect(inputs("requestsGet_0")).toEqual({
      url: "https://api.example.com/items",
      name: "item_search",
      maxOutputLength: 500,
    });
    expect(res.json.warnings).toEqual([
      expect.objectContaining({ nodeId: "chatOllama_0", kind: "approximated", input: "numCtx" }),
    ]);
    expect(res.json.warnings[0].message).toContain("Modelfile");
    expect(() => validateGraph(graph)).not.toThrow();

    stub.setBrain(({ messages }) => {
      const last = messages.at(-1);
      if (last?.role !== "tool") return { toolCalls: [{ name: "calculator", arguments: { expression: "6 * 7" } }] };
      return { content: `It is ${textOf(last.content)}.` };
    });
    const answer = await call(prediction.POST, {
      method: "POST",
      params: { id: res.json.id },
      headers: session,
      body: { question: "6 times 7?" },
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.text).toBe("It is 42.");
    expect(stub.requests.at(-1)?.body).toMatchObject({ model: "llama3.2", temperature: 0.3 });
  });

  it("maps ChatOpenAI Custom's sampling params, and refuses what cannot be imported (inline headers, unknown Ollama keep-alive)", async () => {
    const ok = await importFlow({
      nodes: [
        fwNode("chatOpenAICustom_0", "chatOpenAICustom", {
          modelName: "my-finetune",
          temperature: "0.2",
          topP: "0.9",
          frequencyPenalty: "0.1",
          presencePenalty: "0.2",
          timeout: "30000",
          basepath: "http://127.0.0.1:4111/v1",
        }),
        fwNode("conversationChain_0", "conversationChain", { model: "{{chatOpenAICustom_0.data.instance}}" }),
      ],
      edges: [],
    });
    expect(ok.status, JSON.stringify(ok.json)).toBe(201);
    expect(ok.json.graph.nodes[0]).toMatchObject({
      type: "chatOpenAICompatible",
      data: {
        inputs: {
          model: "my-finetune",
          temperature: 0.2,
          topP: 0.9,
          frequencyPenalty: 0.1,
          presencePenalty: 0.2,
          timeout: 30000,
          baseURL: "http://127.0.0.1:4111/v1",
        },
      },
    });

    const refused = await importFlow({
      nodes: [
        fwNode("chatOllama_0", "chatOllama", { modelName: "llama3.2", keepAlive: "24h" }),
        fwNode("requestsPost_0", "requestsPost", {
          requestsPostUrl: "https://api.example.com/orders",
          requestsPostHeaders: '{"Authorization": "Bearer secret"}',
        }),
        fwNode("toolAgent_0", "toolAgent", {
          model: "{{chatOllama_0.data.instance}}",
          tools: ["{{requestsPost_0.data.instance}}"],
        }),
      ],
      edges: [],
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.json)).toContain("Request headers credential");
    expect(JSON.stringify(refused.json)).toContain("keep-alive");
  });

  it("an In-Memory Vector Store flow imports and answers from its text with no upsert", async () => {
    const res = await importFlow({
      nodes: [
        fwNode("plainText_0", "plainText", { text: "Refunds are paid within 14 days." }),
        fwNode("openAIEmbeddings_0", "openAIEmbeddings", { basepath: stub.url, modelName: "stub-embedding" }),
        fwNode("memoryVectorStore_0", "memoryVectorStore", {
          document: ["{{plainText_0.data.instance}}"],
          embeddings: "{{openAIEmbeddings_0.data.instance}}",
          topK: "2",
        }),
        fwNode("chatOllama_0", "chatOllama", { baseUrl: stub.origin, modelName: "llama3.2" }),
        fwNode("conversationalRetrievalQAChain_0", "conversationalRetrievalQAChain", {
          model: "{{chatOllama_0.data.instance}}",
          vectorStoreRetriever: "{{memoryVectorStore_0.data.instance}}",
        }),
      ],
      edges: [
        {
          source: "plainText_0",
          sourceHandle: "plainText_0-output-document-Document|json",
          target: "memoryVectorStore_0",
          targetHandle: "memoryVectorStore_0-input-document-Document",
        },
        {
          source: "memoryVectorStore_0",
          sourceHandle: "memoryVectorStore_0-output-retriever-Memory|VectorStoreRetriever|BaseRetriever",
          target: "conversationalRetrievalQAChain_0",
          targetHandle: "conversationalRetrievalQAChain_0-input-vectorStoreRetriever-BaseRetriever",
        },
      ],
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json.graph.nodes.find((n: { id: string }) => n.id === "memoryVectorStore_0")).toMatchObject({
      type: "memoryVectorStore",
      data: { inputs: { topK: 2 } },
    });
    stub.setBrain(({ messages }) => {
      const system = textOf(messages.find((m) => m.role === "system")?.content);
      return { content: /paid within (\d+) days/.exec(system)?.[0] ?? "I don't know." };
    });
    const answer = await call(prediction.POST, {
      method: "POST",
      params: { id: res.json.id },
      headers: session,
      body: { question: "When are refunds paid?" },
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.text).toBe("paid within 14 days");
  });
});
