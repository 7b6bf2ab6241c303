import { ChromaClient } from "chromadb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { type ChromaStub, createChromaStub } from "../../dev/chroma-stub/server";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { resetEnvForTests } from "../../lib/env";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { createCredential } from "../../lib/services/credentials";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";
import { auth, call } from "../support/http";
import { HANDBOOK, storeQaGraph } from "../support/store-flows";

// The Chroma store against a local Chroma that speaks its v2 HTTP API, through the official client:
// a collection made when missing, upserts with the record manager's exact counts (records in the
// collection with the text as Chroma's document, the record manager here), a grounded answer, a
// dimension mismatch, a refused token, a failing collection rolling the upsert back, tenant and
// database from the credential, and a Flowise chroma flow reading records another tool wrote.
const DIMS = 64;
let model: ModelStub;
let chroma: ChromaStub;
let key: string;
let session: Record<string, string>;

const graph = (store: Record<string, unknown>, text: string): Graph =>
  storeQaGraph(model.url, "chromaStore", { collection: "docs", topK: 2, ...store }, text);

beforeAll(async () => {
  model = await createModelStub({ embeddingDimensions: DIMS });
  chroma = await createChromaStub({ token: "ch-key", tenants: { default_tenant: ["default_database"], acme: ["kb"] } });
  Object.assign(process.env, {
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: model.url,
    OPENAI_EMBEDDING_MODEL: "stub-embedding",
    // Only the two stubs: a private server beside them is the operator's to allow.
    OUTBOUND_ALLOW_PRIVATE: "false",
    OUTBOUND_ALLOW_HOSTS: `${new URL(model.url).host},${new URL(chroma.url).host}`,
  });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
  key = (await createApiKey({ name: "upsert", permissions: ["upsert"], chatflowIds: [] }, await fixtureKeyOwner())).key;
});
afterAll(async () => {
  await model.close();
  await chroma.close();
});

const chromaCredential = async (apiKey = "ch-key", extra: Record<string, string> = {}) =>
  (
    await createCredential(
      { name: `Chroma ${apiKey}`, type: "chroma", data: { apiKey, baseURL: chroma.url, ...extra } },
      systemCaller,
    )
  ).id;
const upsertJson = (id: string, body: object = {}) =>
  call(upsert.POST, { method: "POST", params: { id }, headers: auth.bearer(key), body });
const records = (collection = "docs") => chroma.byName(collection)?.records ?? new Map();
const embed = async (text: string) => {
  const res = await fetch(`${model.url}/embeddings`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify({ model: "stub-embedding", input: [text] }),
  });
  return ((await res.json()) as { data: { embedding: number[] }[] }).data[0].embedding;
};

describe("Vector Store (Chroma)", () => {
  it("makes the collection, upserts with exact counts (text as Chroma's document), re-upserts skip, changes replace, answers grounded", async () => {
    const credential = await chromaCredential();
    const flow = await createChatflow({ name: "Chroma QA", graph: graph({ credential }, HANDBOOK) }, systemCaller);
    const first = await upsertJson(flow.id);
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json).toMatchObject({ numAdded: 3, numUpdated: 0, numSkipped: 0, numDeleted: 0 });
    expect(chroma.byName("docs")).toMatchObject({ space: "cosine", dimension: DIMS });
    expect(records().size).toBe(3);
    expect([...records().values()].map((r) => r.document).sort()).toEqual([
      "Parcels ship within two days.",
      "Returns are free for thirty days.",
      "Support answers by email.",
    ]);
    expect([...records().values()][0].metadata).toMatchObject({ source: "handbook" });
    expect(chroma.requests.every((r) => r.token === "ch-key")).toBe(true);

    const again = await upsertJson(flow.id);
    expect(again.json).toMatchObject({ numAdded: 0, numSkipped: 3, numDeleted: 0 });

    await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: flow.id },
      headers: session,
      body: { graph: graph({ credential }, HANDBOOK.replace("thirty", "sixty")) },
    });
    const third = await upsertJson(flow.id);
    expect(third.json).toMatchObject({ numAdded: 1, numSkipped: 2, numDeleted: 1 });
    const texts = [...records().values()].map((r) => r.document);
    expect(texts).toContain("Returns are free for sixty days.");
    expect(texts).not.toContain("Returns are free for thirty days.");
    expect(records().size).toBe(3);

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
    expect(chroma.requests.some((r) => r.path.endsWith("/query"))).toBe(true);
  });

  it("the credential's tenant and database name where the collection lives", async () => {
    const credential = await chromaCredential("ch-key", { tenant: "acme", database: "kb" });
    const flow = await createChatflow(
      { name: "Tenant", graph: graph({ credential, collection: "kb-docs" }, "Only one line.") },
      systemCaller,
    );
    const res = await upsertJson(flow.id);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect([...chroma.collections.values()].find((c) => c.name === "kb-docs")).toMatchObject({
      tenant: "acme",
      database: "kb",
    });
    const missing = await createChatflow(
      { name: "No db", graph: graph({ credential, collection: "kb-docs", database: "nope" }, "Only one line.") },
      systemCaller,
    );
    const refused = await upsertJson(missing.id);
    expect(refused.status).toBe(502);
    expect(refused.json.error.message).toContain("database “nope”");
  });

  it("a collection holding another dimension is refused at upsert naming both, and nothing is stored", async () => {
    chroma.seed("small", [{ id: "x", embedding: [1, 0, 0, 0, 0, 0, 0, 0], document: "eight", metadata: {} }]);
    const flow = await createChatflow(
      { name: "Small", graph: graph({ credential: await chromaCredential(), collection: "small" }, HANDBOOK) },
      systemCaller,
    );
    const res = await upsertJson(flow.id);
    expect(res.status).toBe(422);
    expect(res.json.error.message).toContain("Chroma collection “small”");
    expect(res.json.error.message).toContain(`holds 8-dimension vectors, but the embeddings model gives ${DIMS}`);
    expect(records("small").size).toBe(1);
  });

  it("a refused token → 502 saying so (never the token); a failing collection leaves the record manager as it was", async () => {
    const refused = await createChatflow(
      { name: "Bad token", graph: graph({ credential: await chromaCredential("wrong-token") }, HANDBOOK) },
      systemCaller,
    );
    const res = await upsertJson(refused.id);
    expect(res.status).toBe(502);
    expect(res.json.error.message, res.text).toContain("refused the credential");
    expect(res.text).not.toContain("wrong-token");

    const flow = await createChatflow(
      { name: "Flaky", graph: graph({ credential: await chromaCredential(), collection: "flaky" }, "One line only.") },
      systemCaller,
    );
    // The rows are written, then Chroma refuses the records: the transaction rolls back.
    chroma.failNext(500, 1, ["upsert"]);
    const failed = await upsertJson(flow.id);
    expect(failed.status).toBe(502);
    expect(failed.json.error.message).toContain("Chroma collection “flaky”");
    const retried = await upsertJson(flow.id);
    expect(retried.json).toMatchObject({ numAdded: 1, numSkipped: 0 });
    expect(records("flaky").size).toBe(1);
  });

  it("the token goes only to its credential's host; a server the operator has not allowed is refused before any request", async () => {
    const seen = chroma.requests.length;
    const elsewhere = await createChatflow(
      {
        name: "Token elsewhere",
        graph: graph({ credential: await chromaCredential(), url: "http://chroma.attacker.example:8000" }, HANDBOOK),
      },
      systemCaller,
    );
    const res = await upsertJson(elsewhere.id);
    expect(res.status).toBe(403);
    expect(res.json.error.message).toContain("not to chroma.attacker.example:8000");
    const port = Number(new URL(chroma.url).port);
    const privateHost = await createChatflow(
      { name: "Private", graph: graph({ url: `http://127.0.0.2:${port}` }, HANDBOOK) },
      systemCaller,
    );
    const refused = await upsertJson(privateHost.id);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.json.error.message).toContain("OUTBOUND_ALLOW_HOSTS");
    expect(chroma.requests.length).toBe(seen);
  });
});

describe("Flowise chroma (Flowise's export shape)", () => {
  const fwNode = (id: string, name: string, inputs: Record<string, unknown>) => ({
    id,
    type: "customNode",
    position: { x: 0, y: 0 },
    data: { id, name, label: name, version: 2, inputs },
  });

  it("imports and answers from records another tool wrote, its metadata filter keeping another source out", async () => {
    const { port } = new URL(chroma.url);
    const client = new ChromaClient({ host: "127.0.0.1", port: Number(port), headers: { "x-chroma-token": "ch-key" } });
    const shared = await client.getOrCreateCollection({ name: "shared", embeddingFunction: null });
    const text = "Apple revenue 2022 was 394 billion dollars.";
    const vector = await embed(text);
    await shared.add({
      ids: ["apple-1", "tesla-1"],
      embeddings: [vector, vector],
      documents: [text, "Not Apple's."],
      metadatas: [{ source: "apple" }, { source: "tesla" }],
    });
    const imported = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: {
        name: "Flowise Chroma",
        nodes: [
          fwNode("openAIEmbeddings_0", "openAIEmbeddings", { basepath: model.url, modelName: "stub-embedding" }),
          fwNode("chroma_0", "chroma", {
            embeddings: "{{openAIEmbeddings_0.data.instance}}",
            document: "",
            recordManager: "",
            collectionName: "shared",
            chromaURL: chroma.url,
            chromaMetadataFilter: JSON.stringify({ source: "apple" }),
            topK: "2",
          }),
          fwNode("chatOpenAI_0", "chatOpenAI", { basepath: model.url, modelName: "gpt-4o-mini", temperature: "0" }),
          fwNode("conversationalRetrievalQAChain_0", "conversationalRetrievalQAChain", {
            model: "{{chatOpenAI_0.data.instance}}",
            vectorStoreRetriever: "{{chroma_0.data.instance}}",
          }),
        ],
        edges: [
          {
            source: "openAIEmbeddings_0",
            sourceHandle: "openAIEmbeddings_0-output-openAIEmbeddings-OpenAIEmbeddings|Embeddings",
            target: "chroma_0",
            targetHandle: "chroma_0-input-embeddings-Embeddings",
          },
          {
            source: "chroma_0",
            sourceHandle: "chroma_0-output-retriever-Chroma|VectorStoreRetriever|BaseRetriever",
            target: "conversationalRetrievalQAChain_0",
            targetHandle: "conversationalRetrievalQAChain_0-input-vectorStoreRetriever-BaseRetriever",
          },
          {
            source: "chatOpenAI_0",
            sourceHandle: "chatOpenAI_0-output-chatOpenAI-ChatOpenAI|BaseChatModel|BaseLanguageModel",
            target: "conversationalRetrievalQAChain_0",
            targetHandle: "conversationalRetrievalQAChain_0-input-model-BaseChatModel",
          },
        ],
      },
    });
    expect(imported.status, imported.text.slice(0, 600)).toBe(201);
    const g = imported.json.graph as Graph;
    expect(g.nodes.find((n) => n.id === "chroma_0")).toMatchObject({
      type: "chromaStore",
      data: { inputs: { url: chroma.url, collection: "shared", filter: { source: "apple" }, topK: 2 } },
    });
    g.nodes.find((n) => n.id === "chroma_0")!.data.inputs.credential = await chromaCredential();
    const saved = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: imported.json.id },
      headers: session,
      body: { graph: g },
    });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);

    model.setBrain((req) => {
      const all = JSON.stringify(req.messages);
      return { content: all.includes("Not Apple's") ? "leaked" : all.includes("394 billion") ? "394 billion." : "?" };
    });
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id: imported.json.id },
      headers: session,
      body: { question: "What was Apple's revenue in 2022?" },
    });
    expect(res.status, res.text.slice(0, 400)).toBe(200);
    expect(res.json.text).toBe("394 billion.");
    expect(res.json.sourceDocuments?.map((d: { pageContent: string }) => d.pageContent)).toEqual([text]);
  });
});
