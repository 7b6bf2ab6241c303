import { QdrantClient } from "@qdrant/js-client-rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createQdrantStub, type QdrantStub } from "../../dev/qdrant-stub/server";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { resetEnvForTests } from "../../lib/env";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { createCredential } from "../../lib/services/credentials";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";
import { auth, call } from "../support/http";
import { HANDBOOK, storeQaGraph } from "../support/store-flows";

// The Qdrant store against a local Qdrant that speaks its REST API, through the official client:
// upserts with the record manager's exact counts (points in the collection in LangChain's payload
// layout, the record manager here), a grounded answer, a dimension mismatch, a refused key, a failing
// collection rolling the upsert back, the key bound to its host and the server to the operator's
// outbound rules, and a Flowise qdrant flow reading points another tool wrote.
const DIMS = 64;
let model: ModelStub;
let qdrant: QdrantStub;
let key: string;
let session: Record<string, string>;

const graph = (store: Record<string, unknown>, text: string): Graph =>
  storeQaGraph(model.url, "qdrantStore", { collection: "docs", topK: 2, ...store }, text);

beforeAll(async () => {
  model = await createModelStub({ embeddingDimensions: DIMS });
  qdrant = await createQdrantStub({ apiKey: "qd-key", collections: { small: 8, shared: DIMS } });
  Object.assign(process.env, {
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: model.url,
    OPENAI_EMBEDDING_MODEL: "stub-embedding",
    // Only the two stubs: a private server beside them is the operator's to allow.
    OUTBOUND_ALLOW_PRIVATE: "false",
    OUTBOUND_ALLOW_HOSTS: `${new URL(model.url).host},${new URL(qdrant.url).host}`,
  });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
  key = (await createApiKey({ name: "upsert", permissions: ["upsert"], chatflowIds: [] }, await fixtureKeyOwner())).key;
});
afterAll(async () => {
  await model.close();
  await qdrant.close();
});

const qdrantCredential = async (apiKey = "qd-key", baseURL = qdrant.url) =>
  (await createCredential({ name: `Qdrant ${apiKey}`, type: "qdrant", data: { apiKey, baseURL } }, systemCaller)).id;
const upsertJson = (id: string, body: object = {}) =>
  call(upsert.POST, { method: "POST", params: { id }, headers: auth.bearer(key), body });
const points = (collection = "docs") => qdrant.collections.get(collection)?.points ?? new Map();
const embed = async (text: string) => {
  const res = await fetch(`${model.url}/embeddings`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify({ model: "stub-embedding", input: [text] }),
  });
  return ((await res.json()) as { data: { embedding: number[] }[] }).data[0].embedding;
};

describe("Vector Store (Qdrant)", () => {
  it("makes the collection, upserts with exact counts (text and metadata in LangChain's payload), re-upserts skip, changes replace, answers grounded", async () => {
    const credential = await qdrantCredential();
    const flow = await createChatflow({ name: "Qdrant QA", graph: graph({ credential }, HANDBOOK) }, systemCaller);
    const first = await upsertJson(flow.id);
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json).toMatchObject({ numAdded: 3, numUpdated: 0, numSkipped: 0, numDeleted: 0 });
    expect(qdrant.collections.get("docs")).toMatchObject({ size: DIMS, distance: "Cosine" });
    expect(points().size).toBe(3);
    expect([...points().values()].map((p) => p.payload.content).sort()).toEqual([
      "Parcels ship within two days.",
      "Returns are free for thirty days.",
      "Support answers by email.",
    ]);
    expect([...points().values()][0].payload.metadata).toMatchObject({ source: "handbook" });
    // Every request carried the key in Qdrant's header.
    expect(qdrant.requests.every((r) => r.apiKey === "qd-key")).toBe(true);

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
    const texts = [...points().values()].map((p) => p.payload.content);
    expect(texts).toContain("Returns are free for sixty days.");
    expect(texts).not.toContain("Returns are free for thirty days.");
    expect(points().size).toBe(3);

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
    expect(qdrant.requests.some((r) => r.path === "/collections/docs/points/query")).toBe(true);
  });

  it("a collection of another dimension is refused at upsert naming both, and nothing is stored", async () => {
    const flow = await createChatflow(
      { name: "Small", graph: graph({ credential: await qdrantCredential(), collection: "small" }, HANDBOOK) },
      systemCaller,
    );
    const res = await upsertJson(flow.id);
    expect(res.status).toBe(422);
    expect(res.json.error.message).toContain("Qdrant collection “small”");
    expect(res.json.error.message).toContain(`holds 8-dimension vectors, but the embeddings model gives ${DIMS}`);
    expect(points("small").size).toBe(0);
    const again = await upsertJson(flow.id);
    expect(again.status).toBe(422);
  });

  it("a refused key → 502 saying so (never the key); a failing collection leaves the record manager as it was", async () => {
    const refused = await createChatflow(
      { name: "Bad key", graph: graph({ credential: await qdrantCredential("wrong-key") }, HANDBOOK) },
      systemCaller,
    );
    const res = await upsertJson(refused.id);
    expect(res.status).toBe(502);
    expect(res.json.error.message).toContain("refused the credential");
    expect(res.text).not.toContain("wrong-key");

    const flow = await createChatflow(
      { name: "Flaky", graph: graph({ credential: await qdrantCredential(), collection: "flaky" }, "One line only.") },
      systemCaller,
    );
    // The collection exists; its points requests fail once.
    qdrant.collections.set("flaky", { size: DIMS, distance: "Cosine", points: new Map() });
    qdrant.failNext(500, 1);
    const failed = await upsertJson(flow.id);
    expect(failed.status).toBe(502);
    expect(failed.json.error.message).toContain("Qdrant collection “flaky”");
    const retried = await upsertJson(flow.id);
    expect(retried.json).toMatchObject({ numAdded: 1, numSkipped: 0 });
    expect(points("flaky").size).toBe(1);
  });

  it("the key goes only to its credential's host, and a server the operator has not allowed is refused before any request", async () => {
    const seen = qdrant.requests.length;
    const elsewhere = await createChatflow(
      {
        name: "Key elsewhere",
        graph: graph({ credential: await qdrantCredential(), url: "http://qdrant.attacker.example:6333" }, HANDBOOK),
      },
      systemCaller,
    );
    const res = await upsertJson(elsewhere.id);
    expect(res.status).toBe(403);
    expect(res.json.error.message).toContain("not to qdrant.attacker.example:6333");

    // No credential (a server without a key), on a private address not in OUTBOUND_ALLOW_HOSTS.
    const port = Number(new URL(qdrant.url).port);
    const privateHost = await createChatflow(
      { name: "Private", graph: graph({ url: `http://127.0.0.2:${port}` }, HANDBOOK) },
      systemCaller,
    );
    const refused = await upsertJson(privateHost.id);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.json.error.message).toContain("OUTBOUND_ALLOW_HOSTS");
    expect(qdrant.requests.length).toBe(seen);
  });
});

describe("Flowise qdrant (Flowise's export shape)", () => {
  const fwNode = (id: string, name: string, inputs: Record<string, unknown>) => ({
    id,
    type: "customNode",
    position: { x: 0, y: 0 },
    data: { id, name, label: name, version: 1, inputs },
  });

  it("imports and answers from points another tool wrote, its payload filter keeping another source out", async () => {
    const client = new QdrantClient({ url: qdrant.url, apiKey: "qd-key", checkCompatibility: false });
    const text = "Apple revenue 2022 was 394 billion dollars.";
    const vector = await embed(text);
    await client.upsert("shared", {
      wait: true,
      points: [
        { id: 1, vector, payload: { content: text, metadata: { source: "apple" } } },
        { id: 2, vector, payload: { content: "Not Apple's.", metadata: { source: "tesla" } } },
      ],
    });
    const imported = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: {
        name: "Flowise Qdrant",
        nodes: [
          fwNode("openAIEmbeddings_0", "openAIEmbeddings", { basepath: model.url, modelName: "stub-embedding" }),
          fwNode("qdrant_0", "qdrant", {
            embeddings: "{{openAIEmbeddings_0.data.instance}}",
            document: "",
            qdrantServerUrl: qdrant.url,
            qdrantCollection: "shared",
            qdrantVectorDimension: "1536",
            qdrantSimilarity: "Cosine",
            qdrantCollectionConfiguration: "",
            topK: "2",
            qdrantFilter: JSON.stringify({ must: [{ key: "metadata.source", match: { value: "apple" } }] }),
          }),
          fwNode("chatOpenAI_0", "chatOpenAI", { basepath: model.url, modelName: "gpt-4o-mini", temperature: "0" }),
          fwNode("conversationalRetrievalQAChain_0", "conversationalRetrievalQAChain", {
            model: "{{chatOpenAI_0.data.instance}}",
            vectorStoreRetriever: "{{qdrant_0.data.instance}}",
          }),
        ],
        edges: [
          {
            source: "openAIEmbeddings_0",
            sourceHandle: "openAIEmbeddings_0-output-openAIEmbeddings-OpenAIEmbeddings|Embeddings",
            target: "qdrant_0",
            targetHandle: "qdrant_0-input-embeddings-Embeddings",
          },
          {
            source: "qdrant_0",
            sourceHandle: "qdrant_0-output-retriever-Qdrant|VectorStoreRetriever|BaseRetriever",
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
    const store = (imported.json.graph as Graph).nodes.find((n) => n.id === "qdrant_0")!;
    expect(store).toMatchObject({
      type: "qdrantStore",
      data: { inputs: { url: qdrant.url, collection: "shared", distance: "Cosine", topK: 2 } },
    });
    // The server takes a key: the studio's user adds the credential, as after any import.
    const g = imported.json.graph as Graph;
    g.nodes.find((n) => n.id === "qdrant_0")!.data.inputs.credential = await qdrantCredential();
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
