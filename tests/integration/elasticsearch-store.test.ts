import { Client } from "@elastic/elasticsearch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createElasticsearchStub, type ElasticsearchStub } from "../../dev/elasticsearch-stub/server";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { resetEnvForTests } from "../../lib/env";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { createCredential } from "../../lib/services/credentials";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";
import { auth, call } from "../support/http";
import { HANDBOOK, storeQaGraph } from "../support/store-flows";

// The Elasticsearch store against a local Elasticsearch that speaks its REST API, through the official
// client: an index made when missing (dense_vector), upserts with the record manager's exact counts
// (documents in LangChain's layout, the record manager here), a grounded answer, a dimension
// mismatch, a refused key, a failing bulk rolling the upsert back, and a Flowise elasticsearch flow
// reading documents another tool wrote.
const DIMS = 64;
let model: ModelStub;
let es: ElasticsearchStub;
let key: string;
let session: Record<string, string>;

const graph = (store: Record<string, unknown>, text: string): Graph =>
  storeQaGraph(model.url, "elasticsearchStore", { index: "docs", topK: 2, ...store }, text);

beforeAll(async () => {
  model = await createModelStub({ embeddingDimensions: DIMS });
  es = await createElasticsearchStub({ apiKey: "es-key" });
  Object.assign(process.env, {
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: model.url,
    OPENAI_EMBEDDING_MODEL: "stub-embedding",
    // Only the two stubs: a private server beside them is the operator's to allow.
    OUTBOUND_ALLOW_PRIVATE: "false",
    OUTBOUND_ALLOW_HOSTS: `${new URL(model.url).host},${new URL(es.url).host}`,
  });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
  key = (await createApiKey({ name: "upsert", permissions: ["upsert"], chatflowIds: [] }, await fixtureKeyOwner())).key;
});
afterAll(async () => {
  await model.close();
  await es.close();
});

const esCredential = async (apiKey = "es-key", baseURL = es.url) =>
  (
    await createCredential(
      { name: `Elasticsearch ${apiKey}`, type: "elasticsearch", data: { apiKey, baseURL } },
      systemCaller,
    )
  ).id;
const upsertJson = (id: string, body: object = {}) =>
  call(upsert.POST, { method: "POST", params: { id }, headers: auth.bearer(key), body });
const docs = (index = "docs") => es.indices.get(index)?.docs ?? new Map();
const embed = async (text: string) => {
  const res = await fetch(`${model.url}/embeddings`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify({ model: "stub-embedding", input: [text] }),
  });
  return ((await res.json()) as { data: { embedding: number[] }[] }).data[0].embedding;
};

describe("Vector Store (Elasticsearch)", () => {
  it("makes the index, upserts with exact counts (LangChain's text, metadata, embedding), re-upserts skip, changes replace, answers grounded", async () => {
    const credential = await esCredential();
    const flow = await createChatflow({ name: "ES QA", graph: graph({ credential }, HANDBOOK) }, systemCaller);
    const first = await upsertJson(flow.id);
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json).toMatchObject({ numAdded: 3, numUpdated: 0, numSkipped: 0, numDeleted: 0 });
    expect(es.indices.get("docs")).toMatchObject({ dims: DIMS, similarity: "cosine" });
    expect(docs().size).toBe(3);
    expect([...docs().values()].map((d) => d.text).sort()).toEqual([
      "Parcels ship within two days.",
      "Returns are free for thirty days.",
      "Support answers by email.",
    ]);
    expect([...docs().values()][0].metadata).toMatchObject({ source: "handbook" });
    expect(es.requests.every((r) => r.authorization === "ApiKey es-key")).toBe(true);

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
    const texts = [...docs().values()].map((d) => d.text);
    expect(texts).toContain("Returns are free for sixty days.");
    expect(texts).not.toContain("Returns are free for thirty days.");
    expect(docs().size).toBe(3);

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
    expect(es.requests.some((r) => r.path === "/docs/_search")).toBe(true);
  });

  it("an index of another dimension is refused at upsert naming both, and nothing is stored", async () => {
    es.indices.set("small", { dims: 8, similarity: "cosine", docs: new Map() });
    const flow = await createChatflow(
      { name: "Small", graph: graph({ credential: await esCredential(), index: "small" }, HANDBOOK) },
      systemCaller,
    );
    const res = await upsertJson(flow.id);
    expect(res.status).toBe(422);
    expect(res.json.error.message).toContain("Elasticsearch index “small”");
    expect(res.json.error.message).toContain(`holds 8-dimension vectors, but the embeddings model gives ${DIMS}`);
    expect(docs("small").size).toBe(0);
  });

  it("a refused key → 502 saying so (never the key); a failing bulk leaves the record manager as it was", async () => {
    const refused = await createChatflow(
      { name: "Bad key", graph: graph({ credential: await esCredential("wrong-key") }, HANDBOOK) },
      systemCaller,
    );
    const res = await upsertJson(refused.id);
    expect(res.status).toBe(502);
    expect(res.json.error.message, res.text).toContain("refused the credential");
    expect(res.text).not.toContain("wrong-key");

    es.indices.set("flaky", { dims: DIMS, similarity: "cosine", docs: new Map() });
    const flow = await createChatflow(
      { name: "Flaky", graph: graph({ credential: await esCredential(), index: "flaky" }, "One line only.") },
      systemCaller,
    );
    es.failNextBulk(500, 1);
    const failed = await upsertJson(flow.id);
    expect(failed.status).toBe(502);
    expect(failed.json.error.message).toContain("Elasticsearch index “flaky”");
    const retried = await upsertJson(flow.id);
    expect(retried.json).toMatchObject({ numAdded: 1, numSkipped: 0 });
    expect(docs("flaky").size).toBe(1);
  });

  it("a cluster the operator has not allowed is refused before any request", async () => {
    const seen = es.requests.length;
    const port = Number(new URL(es.url).port);
    const flow = await createChatflow(
      {
        name: "Private",
        graph: graph({ credential: await esCredential("es-key", `http://127.0.0.2:${port}`) }, HANDBOOK),
      },
      systemCaller,
    );
    const res = await upsertJson(flow.id);
    expect(res.status, res.text).toBe(403);
    expect(res.json.error.message).toContain("OUTBOUND_ALLOW_HOSTS");
    expect(es.requests.length).toBe(seen);
  });
});

describe("Flowise elasticsearch (Flowise's export shape)", () => {
  const fwNode = (id: string, name: string, inputs: Record<string, unknown>) => ({
    id,
    type: "customNode",
    position: { x: 0, y: 0 },
    data: { id, name, label: name, version: 2, inputs },
  });

  it("imports and answers from documents another tool wrote", async () => {
    const client = new Client({ node: es.url, auth: { apiKey: "es-key" } });
    await client.indices.create({
      index: "shared",
      mappings: { properties: { embedding: { type: "dense_vector", dims: DIMS, index: true, similarity: "l2_norm" } } },
    });
    const text = "Apple revenue 2022 was 394 billion dollars.";
    await client.bulk({
      refresh: true,
      operations: [
        { index: { _index: "shared", _id: "apple-1" } },
        { text, metadata: { source: "apple" }, embedding: await embed(text) },
        { index: { _index: "shared", _id: "far-1" } },
        { text: "Unrelated.", metadata: { source: "other" }, embedding: await embed("Something else entirely") },
      ],
    });
    const imported = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: {
        name: "Flowise Elasticsearch",
        nodes: [
          fwNode("openAIEmbeddings_0", "openAIEmbeddings", { basepath: model.url, modelName: "stub-embedding" }),
          fwNode("elasticsearch_0", "elasticsearch", {
            embeddings: "{{openAIEmbeddings_0.data.instance}}",
            document: "",
            recordManager: "",
            indexName: "shared",
            topK: "1",
            similarity: "l2_norm",
          }),
          fwNode("chatOpenAI_0", "chatOpenAI", { basepath: model.url, modelName: "gpt-4o-mini", temperature: "0" }),
          fwNode("conversationalRetrievalQAChain_0", "conversationalRetrievalQAChain", {
            model: "{{chatOpenAI_0.data.instance}}",
            vectorStoreRetriever: "{{elasticsearch_0.data.instance}}",
          }),
        ],
        edges: [
          {
            source: "openAIEmbeddings_0",
            sourceHandle: "openAIEmbeddings_0-output-openAIEmbeddings-OpenAIEmbeddings|Embeddings",
            target: "elasticsearch_0",
            targetHandle: "elasticsearch_0-input-embeddings-Embeddings",
          },
          {
            source: "elasticsearch_0",
            sourceHandle: "elasticsearch_0-output-retriever-Elasticsearch|VectorStoreRetriever|BaseRetriever",
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
    expect(g.nodes.find((n) => n.id === "elasticsearch_0")).toMatchObject({
      type: "elasticsearchStore",
      data: { inputs: { index: "shared", similarity: "l2_norm", topK: 1 } },
    });
    g.nodes.find((n) => n.id === "elasticsearch_0")!.data.inputs.credential = await esCredential();
    const saved = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: imported.json.id },
      headers: session,
      body: { graph: g },
    });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);

    model.setBrain((req) => ({ content: JSON.stringify(req.messages).includes("394 billion") ? "394 billion." : "?" }));
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id: imported.json.id },
      headers: session,
      body: { question: "Apple revenue 2022" },
    });
    expect(res.status, res.text.slice(0, 400)).toBe(200);
    expect(res.json.text).toBe("394 billion.");
    expect(res.json.sourceDocuments?.map((d: { pageContent: string }) => d.pageContent)).toEqual([text]);
  });
});
