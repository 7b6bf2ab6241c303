import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { textOf } from "../../dev/model-stub/brain";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";
import { auth, call } from "../support/http";

// Flowise's GoogleGenerativeAI Embeddings in a retrieval flow on Gemini, imported, given a Gemini
// credential pointing at the model stub (which speaks generateContent and batchEmbedContents), then
// asked a question answered from the text the embeddings found.
const KEY = "gemini-key-1";
let stub: ModelStub;
let session: Record<string, string>;

beforeAll(async () => {
  stub = await createModelStub({ apiKey: KEY });
  Object.assign(process.env, { OUTBOUND_ALLOW_HOSTS: new URL(stub.origin).host });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});
afterAll(() => stub.close());

const fwNode = (id: string, name: string, inputs: Record<string, unknown>) => ({
  id,
  type: "customNode",
  position: { x: 0, y: 0 },
  data: { id, name, label: name, version: 1, ...(/google/i.test(name) ? { credential: "flowise-cred" } : {}), inputs },
});

const TEXT = "Parcels ship within two days.\n\nReturns are free for thirty days.\n\nSupport answers by email.";

const flowiseFlow = {
  name: "Gemini QnA",
  nodes: [
    fwNode("recursiveCharacterTextSplitter_0", "recursiveCharacterTextSplitter", {
      chunkSize: "40",
      chunkOverlap: "0",
    }),
    fwNode("plainText_0", "plainText", {
      text: TEXT,
      textSplitter: "{{recursiveCharacterTextSplitter_0.data.instance}}",
    }),
    fwNode("googleGenerativeAiEmbeddings_0", "googleGenerativeAiEmbeddings", {
      modelName: "gemini-embedding-001",
      tasktype: "RETRIEVAL_DOCUMENT",
      stripNewLines: true,
    }),
    fwNode("memoryVectorStore_0", "memoryVectorStore", {
      document: ["{{plainText_0.data.instance}}"],
      embeddings: "{{googleGenerativeAiEmbeddings_0.data.instance}}",
      topK: "1",
    }),
    fwNode("chatGoogleGenerativeAI_0", "chatGoogleGenerativeAI", { modelName: "gemini-2.0-flash", temperature: "0" }),
    fwNode("conversationalRetrievalQAChain_0", "conversationalRetrievalQAChain", {
      model: "{{chatGoogleGenerativeAI_0.data.instance}}",
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
};

async function importWith(apiKey: string) {
  const res = await call(importRoute.POST, { method: "POST", headers: session, body: flowiseFlow });
  expect(res.status, JSON.stringify(res.json).slice(0, 400)).toBe(201);
  const graph = structuredClone(res.json.graph) as Graph;
  const embeddings = graph.nodes.find((n) => n.id === "googleGenerativeAiEmbeddings_0")!;
  expect(embeddings).toMatchObject({
    type: "googleGenerativeAiEmbeddings",
    data: { inputs: { modelName: "gemini-embedding-001", taskType: "RETRIEVAL_DOCUMENT", stripNewLines: true } },
  });
  const cred = await call(credentials.POST, {
    method: "POST",
    headers: session,
    body: { name: "Gemini key", type: "googleGenerativeAI", data: { apiKey, baseURL: stub.origin } },
  });
  expect(cred.status, cred.text).toBe(201);
  embeddings.data.inputs.credential = cred.json.id;
  graph.nodes.find((n) => n.id === "chatGoogleGenerativeAI_0")!.data.inputs.credential = cred.json.id;
  const saved = await call(chatflowById.PUT, {
    method: "PUT",
    params: { id: res.json.id },
    headers: session,
    body: { graph },
  });
  expect(saved.status, saved.text.slice(0, 300)).toBe(200);
  return res.json.id as string;
}

describe("Google Gemini embeddings in a flow", () => {
  it("an imported retrieval flow embeds its text with batchEmbedContents and answers from the nearest chunk", async () => {
    const id = await importWith(KEY);
    stub.setBrain(({ messages }) => {
      const context = messages.map((m) => textOf(m.content)).join("\n");
      return { content: /free for (\w+) days/.exec(context)?.[0] ?? "I don't know." };
    });
    const before = stub.requests.length;
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id },
      headers: session,
      body: { question: "Returns are free for how many days?" },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.text).toBe("free for thirty days");
    const embeds = stub.requests.slice(before).filter((r) => r.path.endsWith(":batchEmbedContents"));
    expect(embeds.map((r) => r.path)).toEqual([
      "/v1beta/models/gemini-embedding-001:batchEmbedContents",
      "/v1beta/models/gemini-embedding-001:batchEmbedContents",
    ]);
    expect(embeds.every((r) => r.apiKey === KEY)).toBe(true);
    // The documents: one request per chunk, the task type with each; then the question alone.
    const docs = (
      embeds[0].body as { requests: { model: string; content: { parts: { text: string }[] }; taskType: string }[] }
    ).requests;
    expect(docs.map((r) => r.content.parts[0].text)).toEqual([
      "Parcels ship within two days.",
      "Returns are free for thirty days.",
      "Support answers by email.",
    ]);
    expect(docs.every((r) => r.model === "models/gemini-embedding-001" && r.taskType === "RETRIEVAL_DOCUMENT")).toBe(
      true,
    );
    expect((embeds[1].body as { requests: unknown[] }).requests).toHaveLength(1);
  });

  it("a refused key: 502 saying the credential was refused, the key never in the answer", async () => {
    const id = await importWith("wrong-gemini-key");
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id },
      headers: session,
      body: { question: "Hi" },
    });
    expect(res.status).toBe(502);
    expect(res.json.error.message).toMatch(/refused the credentials \(HTTP 401\)/);
    expect(res.text).not.toContain("wrong-gemini-key");
  });
});
