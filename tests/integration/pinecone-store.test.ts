import fs from "node:fs";
import path from "node:path";
import { Pinecone } from "@pinecone-database/pinecone";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { createModelStub, scriptedBrain, type ModelStub } from "../../dev/model-stub/server";
import { createPineconeStub, type PineconeStub } from "../../dev/pinecone-stub/server";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { resetEnvForTests } from "../../lib/env";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { createCredential } from "../../lib/services/credentials";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";
import { auth, call } from "../support/http";
import { HANDBOOK, storeQaGraph } from "../support/store-flows";

// The Pinecone store against a local Pinecone that speaks its REST API, through the official client:
// upserts with the record manager's exact counts (vectors in the index, the record manager here),
// grounded answers, a dimension mismatch, a refused key, and Flowise's Multiple Documents QnA
// template searching an index another tool filled.
const DIMS = 64;
let model: ModelStub;
let pinecone: PineconeStub;
let key: string;
let session: Record<string, string>;

const graph = (credential: string, text: string, indexName = "docs"): Graph =>
  storeQaGraph(model.url, "pineconeStore", { credential, indexName, namespace: "team-a", topK: 2 }, text);

beforeAll(async () => {
  model = await createModelStub({ embeddingDimensions: DIMS });
  pinecone = await createPineconeStub({ apiKey: "pc-key", indexes: { docs: DIMS, small: 8 } });
  Object.assign(process.env, {
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: model.url,
    OPENAI_EMBEDDING_MODEL: "stub-embedding",
    OUTBOUND_ALLOW_HOSTS: `${new URL(model.url).host},${new URL(pinecone.url).host}`,
  });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
  key = (await createApiKey({ name: "upsert", permissions: ["upsert"], chatflowIds: [] }, await fixtureKeyOwner())).key;
});
afterAll(async () => {
  await model.close();
  await pinecone.close();
});

const pineconeCredential = async (apiKey = "pc-key") =>
  (
    await createCredential(
      { name: `Pinecone ${apiKey}`, type: "pinecone", data: { apiKey, baseURL: pinecone.url } },
      systemCaller,
    )
  ).id;
const upsertJson = (id: string, body: object = {}) =>
  call(upsert.POST, { method: "POST", params: { id }, headers: auth.bearer(key), body });
const records = () => pinecone.data.get("docs/team-a") ?? new Map();

describe("Vector Store (Pinecone)", () => {
  it("upserts with exact counts: vectors and their text in the index, the record manager here; re-upserts skip, changes replace", async () => {
    const credential = await pineconeCredential();
    const flow = await createChatflow({ name: "Pinecone QA", graph: graph(credential, HANDBOOK) }, systemCaller);
    const first = await upsertJson(flow.id);
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json).toMatchObject({ numAdded: 3, numUpdated: 0, numSkipped: 0, numDeleted: 0 });
    expect(records().size).toBe(3);
    const texts = [...records().values()].map((r) => r.metadata.text).sort();
    expect(texts).toEqual([
      "Parcels ship within two days.",
      "Returns are free for thirty days.",
      "Support answers by email.",
    ]);
    expect([...records().values()][0].metadata.source).toBe("handbook");

    const again = await upsertJson(flow.id);
    expect(again.json).toMatchObject({ numAdded: 0, numSkipped: 3, numDeleted: 0 });

    const changed = HANDBOOK.replace("thirty", "sixty");
    await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: flow.id },
      headers: session,
      body: { graph: graph(credential, changed) },
    });
    const third = await upsertJson(flow.id);
    expect(third.json).toMatchObject({ numAdded: 1, numSkipped: 2, numDeleted: 1 });
    expect([...records().values()].map((r) => r.metadata.text)).toContain("Returns are free for sixty days.");
    expect([...records().values()].map((r) => r.metadata.text)).not.toContain("Returns are free for thirty days.");
    expect(records().size).toBe(3);

    // A grounded answer: the chunks the index finds reach the model.
    model.setBrain((req) => ({
      content: JSON.stringify(req.messages).includes("sixty days") ? "Returns: sixty days." : "?",
    }));
    const answer = await call(prediction.POST, {
      method: "POST",
      params: { id: flow.id },
      headers: session,
      body: { question: "Returns are free for how long?" },
    });
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expect(answer.json.text).toBe("Returns: sixty days.");
  });

  it("an index of another dimension is refused at upsert naming both, and nothing is stored", async () => {
    const flow = await createChatflow(
      { name: "Small index", graph: graph(await pineconeCredential(), HANDBOOK, "small") },
      systemCaller,
    );
    const res = await upsertJson(flow.id);
    expect(res.status).toBe(422);
    expect(res.json.error.message).toContain("Pinecone index “small” (namespace “team-a”) holds 8-dimension vectors");
    expect(res.json.error.message).toContain(`gives ${DIMS} dimensions`);
  });

  it("a refused key → 502 saying so; an index Pinecone lost mid-upsert leaves the record manager as it was", async () => {
    const refused = await createChatflow(
      { name: "Bad key", graph: graph(await pineconeCredential("wrong"), HANDBOOK) },
      systemCaller,
    );
    const res = await upsertJson(refused.id);
    expect(res.status).toBe(502);
    expect(res.json.error.message).toContain("Pinecone refused the credential");
    expect(res.text).not.toContain("wrong");

    const flow = await createChatflow(
      { name: "Flaky", graph: graph(await pineconeCredential(), "One line only.") },
      systemCaller,
    );
    pinecone.failNext(500, 20);
    const failed = await upsertJson(flow.id);
    expect(failed.status).toBe(502);
    pinecone.failNext(500, 0);
    const retried = await upsertJson(flow.id);
    expect(retried.json).toMatchObject({ numAdded: 1, numSkipped: 0 });
  });
});

describe("Flowise's Multiple Documents QnA (two Pinecone namespaces behind retriever tools)", () => {
  it("imports as it ships and answers from records another tool wrote into the index", async () => {
    const template = JSON.parse(
      fs.readFileSync(
        path.resolve(import.meta.dirname, "../../../shared/fixtures/flowise/marketplace/Multiple_Documents_QnA.json"),
        "utf8",
      ),
    );
    const imported = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: { name: "Multi docs", ...template },
    });
    expect(imported.status, imported.text.slice(0, 500)).toBe(201);
    const g = imported.json.graph as Graph;
    const cred = await call(credentials.POST, {
      method: "POST",
      headers: session,
      body: { name: "Pinecone", type: "pinecone", data: { apiKey: "pc-key", baseURL: pinecone.url } },
    });
    for (const n of g.nodes) {
      if (n.type === "pineconeStore") Object.assign(n.data.inputs, { credential: cred.json.id, indexName: "docs" });
      if (n.type === "openAIEmbeddings" || n.type === "chatOpenAICompatible") n.data.inputs.baseURL = model.url;
    }
    expect(g.nodes.find((n) => n.id === "pinecone_0")!.data.inputs).toMatchObject({
      namespace: "pinecone-form10k",
      metadataFilter: { source: "apple" },
    });
    const saved = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: imported.json.id },
      headers: session,
      body: { graph: g },
    });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);

    // Filled by another tool (LangChain's convention: the text under "text"), with the same embeddings.
    const embed = async (text: string) => {
      const res = await fetch(`${model.url}/embeddings`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer test-key" },
        body: JSON.stringify({ model: "stub-embedding", input: [text] }),
      });
      return ((await res.json()) as { data: { embedding: number[] }[] }).data[0].embedding;
    };
    const index = new Pinecone({ apiKey: "pc-key", controllerHostUrl: pinecone.url }).index({
      host: pinecone.url,
      namespace: "pinecone-form10k",
    });
    await index.upsert({
      records: [
        {
          id: "apple-1",
          values: await embed("Apple revenue 2022 was 394 billion dollars."),
          metadata: { source: "apple", text: "Apple revenue 2022 was 394 billion dollars." },
        },
        {
          id: "other-1",
          values: await embed("Apple revenue 2022 was 394 billion dollars."),
          metadata: { source: "tesla", text: "Not Apple's." },
        },
      ],
    });

    model.setBrain(
      scriptedBrain([
        { toolCalls: [{ name: "search_apple", arguments: { query: "Apple revenue 2022" } }] },
        { content: "Apple made 394 billion dollars in 2022." },
      ]),
    );
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id: imported.json.id },
      headers: session,
      body: { question: "What was Apple's revenue in 2022?" },
    });
    expect(res.status, res.text.slice(0, 400)).toBe(200);
    expect(res.json.text).toBe("Apple made 394 billion dollars in 2022.");
    const toolOutput = JSON.stringify(res.json.usedTools);
    expect(toolOutput).toContain("394 billion");
    // The node's metadata filter kept the other source's record out.
    expect(toolOutput).not.toContain("Not Apple's.");
  });
});

describe("Flowise's Context Chat Engine (LlamaIndex: text file → Pinecone → context chat engine, Redis memory)", () => {
  it("imports onto our nodes, upserts its text file into Pinecone and answers with the session remembered", async () => {
    const template = JSON.parse(
      fs.readFileSync(
        path.resolve(import.meta.dirname, "../../../shared/fixtures/flowise/marketplace/Context_Chat_Engine.json"),
        "utf8",
      ),
    );
    const imported = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: { name: "Context chat", ...template },
    });
    expect(imported.status, imported.text.slice(0, 600)).toBe(201);
    const g = imported.json.graph as Graph;
    expect(Object.fromEntries(g.nodes.map((n) => [n.id, n.type]))).toMatchObject({
      pineconeLlamaIndex_0: "pineconeStore",
      contextChatEngine_0: "conversationalRetrievalQAChain",
      RedisBackedChatMemory_0: "bufferMemory",
      chatOpenAI_LlamaIndex_2: "chatOpenAICompatible",
      openAIEmbedding_LlamaIndex_0: "openAIEmbeddings",
    });
    const cred = (
      await createCredential(
        { name: "PC", type: "pinecone", data: { apiKey: "pc-key", baseURL: pinecone.url } },
        systemCaller,
      )
    ).id;
    for (const n of g.nodes) {
      if (n.type === "pineconeStore")
        Object.assign(n.data.inputs, { credential: cred, indexName: "docs", namespace: "context-chat" });
      if (n.type === "openAIEmbeddings" || n.type === "chatOpenAICompatible") n.data.inputs.baseURL = model.url;
      if (n.type === "textFileLoader") n.data.inputs.file = "Our office opens at nine.\n\nLunch is at noon.";
    }
    const saved = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: imported.json.id },
      headers: session,
      body: { graph: g },
    });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);
    const up = await upsertJson(imported.json.id);
    expect(up.status, JSON.stringify(up.json)).toBe(200);
    expect(up.json.numAdded).toBeGreaterThan(0);
    expect(pinecone.data.get("docs/context-chat")?.size).toBe(up.json.numAdded);

    model.setBrain((req) => ({ content: JSON.stringify(req.messages).includes("opens at nine") ? "At nine." : "?" }));
    const ask = (question: string) =>
      call(prediction.POST, {
        method: "POST",
        params: { id: imported.json.id },
        headers: session,
        body: { question, overrideConfig: { sessionId: "ctx-1" } },
      });
    const first = await ask("When does the office open?");
    expect(first.status, first.text.slice(0, 300)).toBe(200);
    expect(first.json.text).toBe("At nine.");
    expect(first.json.sourceDocuments?.[0]?.pageContent).toContain("nine");
    await ask("And lunch?");
    expect(JSON.stringify(model.requests.at(-1)?.body)).toContain("When does the office open?");
  });
});
