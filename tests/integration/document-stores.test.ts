import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as storesRoute from "../../app/api/v1/document-store/store/route";
import * as storeRoute from "../../app/api/v1/document-store/store/[id]/route";
import * as upsertRoute from "../../app/api/v1/document-store/upsert/[id]/route";
import * as refreshRoute from "../../app/api/v1/document-store/refresh/[id]/route";
import * as queryRoute from "../../app/api/v1/document-store/vectorstore/query/route";
import * as previewRoute from "../../app/api/v1/document-store/loader/preview/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import type { Graph } from "@/common/schemas/graph";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow, deleteChatflow } from "../../lib/services/chatflows";
import { createUser } from "../../lib/services/users";
import { userCaller } from "../../dev/callers";
import { auth, call } from "../support/http";
import { textOf } from "../../dev/model-stub/brain";
import { createModelStub, type Brain, type ModelStub } from "../../dev/model-stub/server";
import { REFUNDS_MD } from "../support/docs-flows";

/** Embedded PGlite ships pgvector; a PostgreSQL server may not: the store is then a keyword store. */
async function databaseHasPgvector(): Promise<boolean> {
  if (!process.env.DATABASE_URL?.startsWith("postgres")) return true;
  const rows = await (await getDb()).$queryRawUnsafe<unknown[]>(
    "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'",
  );
  return rows.length > 0;
}
const hasPgvector = await databaseHasPgvector();

/** Answers the refund period when the context it is given holds it, else "I don't know". */
const docsBrain: Brain = ({ messages }) => {
  const system = textOf(messages.find((m) => m.role === "system")?.content ?? "");
  const days = /paid within (\d+) days/.exec(system);
  return { content: days ? `Refunds are paid within ${days[1]} days.` : "I don't know." };
};

const SHIPPING_TXT = "Shipping policy\n\nOrders leave our Leeds warehouse in 2 days.";

const node = (id: string, type: string, inputs: Record<string, unknown> = {}) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { inputs },
});
const edge = (source: string, output: string, target: string, input: string) => ({
  id: `${source}-${target}-${input}`,
  source,
  sourceHandle: `${source}:out:${output}`,
  target,
  targetHandle: `${target}:in:${input}`,
});

/** Two text files (saved on their loaders) → a splitter → a pgvector store with embeddings (or a keyword store). */
function storeGraph(refunds = REFUNDS_MD): Graph {
  const nodes = [
    node("splitter", "recursiveTextSplitter", { chunkSize: 80, chunkOverlap: 0 }),
    node("refunds", "textFileLoader", { file: refunds, sourceName: "refunds.md" }),
    node("shipping", "textFileLoader", { file: SHIPPING_TXT, sourceName: "shipping.txt" }),
    node("store", hasPgvector ? "pgvectorStore" : "keywordStore", { topK: 2 }),
  ];
  const edges = [
    edge("splitter", "textSplitter", "refunds", "textSplitter"),
    edge("splitter", "textSplitter", "shipping", "textSplitter"),
    edge("refunds", "document", "store", "document"),
    edge("shipping", "document", "store", "document"),
  ];
  if (hasPgvector) {
    nodes.push(node("embeddings", "openAIEmbeddings", { baseURL: stub.url }));
    edges.push(edge("embeddings", "embeddings", "store", "embeddings"));
  }
  return { nodes, edges } as Graph;
}

/** A QA chain reading the store through the Document Store Retriever node. */
function flowGraph(storeId: string): Graph {
  return {
    nodes: [
      node("docs", "documentStoreRetriever", { storeId }),
      node("chatModel", "chatOpenAICompatible", { baseURL: stub.url, temperature: 0 }),
      node("qa", "conversationalRetrievalQAChain"),
    ],
    edges: [edge("docs", "retriever", "qa", "retriever"), edge("chatModel", "chatModel", "qa", "model")],
  } as Graph;
}

let stub: ModelStub;
let owner: { id: string; email: string; name: string; role: "builder" };
let ownerHeaders: Record<string, string>;
let otherHeaders: Record<string, string>;
let other: { id: string; email: string; name: string; role: "builder" };
let storeId: string;

beforeAll(async () => {
  stub = await createModelStub({ brain: docsBrain });
  Object.assign(process.env, {
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: stub.url,
    OPENAI_MODEL: "stub-model",
    OPENAI_EMBEDDING_MODEL: "stub-embedding",
  });
  resetEnvForTests();
  const made = await createUser({
    email: "ds-owner@ds.test",
    name: "Owner",
    password: "owner-pass-123",
    role: "builder",
  });
  owner = { id: made.id, email: made.email, name: made.name, role: "builder" };
  const made2 = await createUser({
    email: "ds-other@ds.test",
    name: "Other",
    password: "other-pass-123",
    role: "builder",
  });
  other = { id: made2.id, email: made2.email, name: made2.name, role: "builder" };
  ownerHeaders = await auth.session(owner.id, owner.email);
  otherHeaders = await auth.session(other.id, other.email);
});
afterAll(() => stub.close());

const post = (
  handler: typeof upsertRoute.POST,
  opts: { params?: Record<string, string>; body?: unknown },
  headers = ownerHeaders,
) => call(handler, { method: "POST", headers, ...opts });

describe("document stores", () => {
  it("a store built from two files is created, previewed, upserted with exact counts, re-upserted with skips and queried", async () => {
    const created = await post(storesRoute.POST, { body: { name: "Policies", graph: storeGraph() } });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.json).toMatchObject({
      name: "Policies",
      status: "empty",
      chunks: 0,
      storeNode: { nodeId: "store" },
    });
    storeId = created.json.id;

    const preview = await post(previewRoute.POST, { body: { storeId, previewChunkCount: 2 } });
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    expect(preview.json.chunks).toHaveLength(2);
    expect(preview.json.totalChunks).toBeGreaterThan(3);
    const sources = new Set(preview.json.chunks.map((c: { metadata: { source: string } }) => c.metadata.source));
    expect(sources.has("refunds.md")).toBe(true);
    // A preview writes nothing.
    expect((await call(storeRoute.GET, { params: { id: storeId }, headers: ownerHeaders })).json.chunks).toBe(0);

    const first = await post(upsertRoute.POST, { params: { id: storeId } });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json).toEqual({ numAdded: preview.json.totalChunks, numUpdated: 0, numSkipped: 0, numDeleted: 0 });
    const read = await call(storeRoute.GET, { params: { id: storeId }, headers: ownerHeaders });
    expect(read.json).toMatchObject({ status: "upserted", chunks: preview.json.totalChunks });

    const again = await post(refreshRoute.POST, { params: { id: storeId } });
    expect(again.json).toEqual({ numAdded: 0, numUpdated: 0, numSkipped: preview.json.totalChunks, numDeleted: 0 });

    const found = await post(queryRoute.POST, { body: { storeId, query: "How long do refunds take to be paid?" } });
    expect(found.status, JSON.stringify(found.json)).toBe(200);
    expect(found.json.docs.length).toBeGreaterThan(0);
    expect(found.json.docs.some((d: { pageContent: string }) => d.pageContent.includes("paid within 14 days"))).toBe(
      true,
    );
  });

  it("a changed file replaces only its own chunks: the store is stale until the next upsert", async () => {
    const changed = REFUNDS_MD.replace("14 days", "10 days");
    const put = await call(storeRoute.PUT, {
      method: "PUT",
      params: { id: storeId },
      headers: ownerHeaders,
      body: { graph: storeGraph(changed) },
    });
    expect(put.json.status).toBe("stale");
    const res = await post(upsertRoute.POST, { params: { id: storeId } });
    expect(res.json.numAdded).toBe(1);
    expect(res.json.numDeleted).toBe(1);
    expect(res.json.numSkipped).toBeGreaterThan(0);
  });

  it("a flow reads the store through the Document Store Retriever node and answers grounded on it", async () => {
    const flow = await createChatflow({ name: "policies qa", graph: flowGraph(storeId) as never }, userCaller(owner));
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id: flow.id },
      headers: ownerHeaders,
      body: { question: "How long do refunds take?", overrideConfig: { returnSourceDocuments: true } },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.text).toBe("Refunds are paid within 10 days.");
    expect(res.json.sourceDocuments[0].metadata.source).toBe("refunds.md");
  });

  it("Flowise's Document Store (Vector) imports as the retriever node with the chosen store, and answers from it", async () => {
    const fwNode = (id: string, name: string, inputs: Record<string, unknown>) => ({
      id,
      type: "customNode",
      position: { x: 0, y: 0 },
      data: { id, name, label: name, version: 1, inputs },
    });
    const imported = await call(importRoute.POST, {
      method: "POST",
      headers: ownerHeaders,
      body: {
        name: "Flowise doc store QA",
        nodes: [
          fwNode("documentStoreVS_0", "documentStoreVS", { selectedStore: storeId }),
          fwNode("chatOllama_0", "chatOllama", { baseUrl: stub.origin, modelName: "llama3.2" }),
          fwNode("conversationalRetrievalQAChain_0", "conversationalRetrievalQAChain", {
            model: "{{chatOllama_0.data.instance}}",
            vectorStoreRetriever: "{{documentStoreVS_0.data.instance}}",
          }),
        ],
        edges: [
          {
            source: "documentStoreVS_0",
            sourceHandle: "documentStoreVS_0-output-retriever-BaseRetriever",
            target: "conversationalRetrievalQAChain_0",
            targetHandle: "conversationalRetrievalQAChain_0-input-vectorStoreRetriever-BaseRetriever",
          },
          {
            source: "chatOllama_0",
            sourceHandle: "chatOllama_0-output-chatOllama-ChatOllama|BaseChatModel",
            target: "conversationalRetrievalQAChain_0",
            targetHandle: "conversationalRetrievalQAChain_0-input-model-BaseChatModel",
          },
        ],
      },
    });
    expect(imported.status, JSON.stringify(imported.json)).toBe(201);
    expect(imported.json.graph.nodes.find((n: { id: string }) => n.id === "documentStoreVS_0")).toMatchObject({
      type: "documentStoreRetriever",
      data: { inputs: { storeId } },
    });
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id: imported.json.id },
      headers: ownerHeaders,
      body: { question: "How long do refunds take?" },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.text).toBe("Refunds are paid within 10 days.");
  });

  it("another builder's store is 404 everywhere, and a flow of theirs naming it fails with 404", async () => {
    expect((await call(storeRoute.GET, { params: { id: storeId }, headers: otherHeaders })).status).toBe(404);
    expect((await post(upsertRoute.POST, { params: { id: storeId } }, otherHeaders)).status).toBe(404);
    expect((await post(queryRoute.POST, { body: { storeId, query: "refunds" } }, otherHeaders)).status).toBe(404);
    const list = await call(storesRoute.GET, { headers: otherHeaders });
    expect(list.json.map((s: { id: string }) => s.id)).not.toContain(storeId);
    const del = await call(storeRoute.DELETE, { method: "DELETE", params: { id: storeId }, headers: otherHeaders });
    expect(del.status).toBe(404);
    const theirFlow = await createChatflow({ name: "theirs", graph: flowGraph(storeId) as never }, userCaller(other));
    const asked = await call(prediction.POST, {
      method: "POST",
      params: { id: theirFlow.id },
      headers: otherHeaders,
      body: { question: "How long do refunds take?" },
    });
    expect(asked.status, JSON.stringify(asked.json)).toBe(404);
    expect(asked.json.error.message).toContain(`Document store ${storeId} not found`);
  });

  it("bad input is a 4xx that changes nothing", async () => {
    const noStore = await post(storesRoute.POST, {
      body: { name: "x", graph: { nodes: [node("splitter", "recursiveTextSplitter")], edges: [] } },
    });
    expect(noStore.status).toBe(422);
    expect(noStore.json.error.message).toContain("exactly one vector or keyword store node");
    const unknownType = await post(storesRoute.POST, {
      body: { name: "x", graph: { nodes: [node("a", "noSuchNode")], edges: [] } },
    });
    expect(unknownType.status).toBeGreaterThanOrEqual(400);
    expect(unknownType.status).toBeLessThan(500);
    expect((await post(storesRoute.POST, { body: { graph: storeGraph() } })).status).toBe(400);
    expect((await post(queryRoute.POST, { body: { storeId: "nope", query: "x" } })).status).toBe(400);
    expect((await post(queryRoute.POST, { body: { storeId, query: "" } })).status).toBe(400);
    const list = await call(storesRoute.GET, { headers: ownerHeaders });
    expect(list.json).toHaveLength(1);
  });

  it("deleting a chatflow still deletes its own chunks (the chunk table has no foreign key since stores key chunks too)", async () => {
    const flow = await createChatflow({ name: "with chunks", graph: flowGraph(storeId) as never }, userCaller(owner));
    const db = await getDb();
    await db.documentChunk.create({
      data: { chatflowId: flow.id, nodeId: "ks", source: "a.txt", contentHash: "h", content: "a chunk" },
    });
    await deleteChatflow(flow.id, userCaller(owner));
    expect(await db.documentChunk.count({ where: { chatflowId: flow.id } })).toBe(0);
    expect(await db.documentChunk.count({ where: { chatflowId: storeId } })).toBeGreaterThan(0);
  });

  it("deleting a store deletes its chunks", async () => {
    const del = await call(storeRoute.DELETE, { method: "DELETE", params: { id: storeId }, headers: ownerHeaders });
    expect(del.json).toEqual({ deleted: true, id: storeId });
    expect(await (await getDb()).documentChunk.count({ where: { chatflowId: storeId } })).toBe(0);
    expect((await call(storeRoute.GET, { params: { id: storeId }, headers: ownerHeaders })).status).toBe(404);
  });
});
